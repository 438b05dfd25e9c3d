export { approximateBytes, approximateEventBytes } from './approximate-bytes';
export {
  COMPACTION_RANGE_METADATA_KEY,
  createEventActions,
  type EventActions,
  type EventCompaction,
  type ToolConfirmation,
} from './event-actions';
export { createEvent, newEventId, type Event, type EventInit } from './event';
export { contentSchema, eventActionsSchema, eventSchema, partSchema } from './event-schema';
export { hasFunctionCalls, isFinalResponse } from './is-final-response';
export { parseEvent } from './parse-event';
export { withIdSource } from './random-uuid';
