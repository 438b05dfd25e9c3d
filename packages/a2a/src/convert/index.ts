export { AdkDataPartType, AdkMetadataKey } from './metadata-keys';
export {
  a2aMessageToContent,
  contentToA2aMessage,
  eventToA2aMessage,
  type MessageAddress,
} from './messages';
export { toA2aParts, toAdkParts, type ConvertedParts } from './parts';
