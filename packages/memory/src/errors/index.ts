export { UnsupportedMemoryDialectError } from './unsupported-dialect-error';
export { MemoryExtractionError } from './memory-extraction-error';
