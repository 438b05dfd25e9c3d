export {
  MemoryIngestionPlugin,
  type MemoryIngestionPluginOptions,
} from './memory-ingestion-plugin';
