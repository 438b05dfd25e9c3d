export { TraceStore, type TraceSpan } from './trace-store';
