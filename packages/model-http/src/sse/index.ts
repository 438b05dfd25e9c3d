export { jsonSseEvents, type JsonSseEvent } from './json-sse-events';
export { parseSseStream } from './parse-sse-stream';
export { SseParser, type SseEvent } from './sse-parser';
