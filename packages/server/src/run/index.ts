export { runRoutes } from './run-routes';
export { SSE_KEEP_ALIVE, sseErrorEvent, sseFrame, type SseErrorEvent } from './sse';
