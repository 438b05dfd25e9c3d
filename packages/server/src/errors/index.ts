export { ClientDisconnectedError } from './client-disconnected-error';
export { LiveFrameError } from './live-frame-error';
