export type { LiveRequest } from './live-request';
export {
  DEFAULT_LIVE_REQUEST_QUEUE_CAPACITY,
  LiveRequestQueue,
  type LiveRequestQueueOptions,
} from './live-request-queue';
export {
  DEFAULT_LIVE_RECONNECT_ATTEMPTS,
  takeLiveEvents,
  type LiveHost,
  type RunLiveRequest,
} from './run-live';
export { LIVE_BLOB_METADATA_KEY } from './live-blob-recorder';
export { LiveResponseBuffer, type LiveResponseBufferOptions } from './live-response-buffer';
export { PlainBlob, plainBlobOf } from './plain-blob';
