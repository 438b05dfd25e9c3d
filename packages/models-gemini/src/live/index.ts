export { GeminiLiveConnection, type GeminiLiveConnectionOptions } from './gemini-live-connection';
export type {
  GeminiLiveClientMessage,
  GeminiLiveServerMessage,
  GeminiLiveSetup,
} from './gemini-live-wire';
export { liveCloseError } from './live-close-error';
export { LiveResponseReader, parseDurationMs } from './live-response-reader';
export {
  liveSocketTarget,
  VERTEX_LIVE_API_VERSION,
  type LiveSocketTarget,
} from './live-socket-target';
export { toContentMessages, toHistoryMessage, toRealtimeMessage } from './to-live-client-messages';
export { toLiveSetup } from './to-live-setup';
