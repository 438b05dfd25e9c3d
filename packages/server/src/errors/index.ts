export { ClientDisconnectedError } from './client-disconnected-error';
export { RunStreamStalledError } from './run-stream-stalled-error';
export { ServerShuttingDownError } from './server-shutting-down-error';
