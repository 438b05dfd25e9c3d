export { InMemoryMemoryService } from './in-memory-memory-service';
