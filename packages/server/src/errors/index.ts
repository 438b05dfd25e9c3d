export { ClientDisconnectedError } from './client-disconnected-error';
