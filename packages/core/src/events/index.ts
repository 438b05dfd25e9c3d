export {
  createEventActions,
  type EventActions,
  type EventCompaction,
  type ToolConfirmation,
} from './event-actions';
export { createEvent, newEventId, type Event, type EventInit } from './event';
