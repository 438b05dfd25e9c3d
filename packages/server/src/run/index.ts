export { runRoutes } from './run-routes';
export { sseErrorEvent, sseFrame, type SseErrorEvent } from './sse';
