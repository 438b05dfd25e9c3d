export type {
  MemoryEntry,
  MemoryService,
  SearchMemoryRequest,
  SearchMemoryResponse,
} from './memory-service';
