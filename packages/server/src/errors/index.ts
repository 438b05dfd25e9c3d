export { ClientDisconnectedError } from './client-disconnected-error';
export { LiveFrameError } from './live-frame-error';
export { RunStreamStalledError } from './run-stream-stalled-error';
export { ServerShuttingDownError } from './server-shutting-down-error';
