export { EXTRACTION_INSTRUCTION } from './extraction-prompt';
export {
  MemoryExtractor,
  type MemoryChange,
  type MemoryExtractorOptions,
} from './memory-extractor';
export { parseMemoryOperations, type MemoryOperation } from './memory-operations';
export {
  BackgroundMemoryExtraction,
  type BackgroundMemoryExtractionOptions,
  type ExtractionJob,
  type ExtractionJobStore,
  type ScheduledExtraction,
} from './background-extraction';
