export type { LiveRequest } from './live-request';
export {
  DEFAULT_LIVE_REQUEST_QUEUE_CAPACITY,
  LiveRequestQueue,
  type LiveRequestQueueOptions,
} from './live-request-queue';
