export {
  jobChannelNames,
  publishJobEvent,
  subscribeJobEvents,
  type JobChannelKey,
  type JobChannelMessages,
  type JobCompletedMessage,
  type JobDeadMessage,
  type JobEnqueuedMessage,
  type JobFailedMessage,
  type JobReleasedMessage,
  type JobRetryingMessage,
  type JobStartedMessage,
} from './job-channels';
