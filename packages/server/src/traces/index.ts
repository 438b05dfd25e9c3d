export { TraceStore, type TraceSpan, type TraceStoreOptions } from './trace-store';
