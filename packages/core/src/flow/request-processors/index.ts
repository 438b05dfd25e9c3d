export { configProcessor } from './config-processor';
export { contentsProcessor } from './contents-processor';
export { buildRequest, defaultRequestProcessors } from './default-processors';
export { identityProcessor } from './identity-processor';
export { instructionsProcessor } from './instructions-processor';
export { outputSchemaProcessor } from './output-schema-processor';
export { toolsProcessor } from './tools-processor';
export {
  appendDynamicInstruction,
  appendInstruction,
  prependInstruction,
  type RequestProcessor,
  type RequestProcessorInput,
} from './types';
