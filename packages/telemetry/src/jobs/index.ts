export { JobSpans, type JobSpansOptions } from './job-spans';
export {
  JOB_CHANNELS,
  type ObservedJob,
  type ObservedJobCompleted,
  type ObservedJobError,
  type ObservedJobFailed,
  type ObservedJobMessage,
  type ObservedJobReleased,
} from './job-messages';
