export type {
  DeleteMemoriesRequest,
  DeleteMemoriesResponse,
  MemoryEntry,
  MemoryService,
  SearchMemoryRequest,
  SearchMemoryResponse,
} from './memory-service';
export { validateDeleteMemoriesRequest } from './validate-delete-memories-request';
