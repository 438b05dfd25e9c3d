import { memoryServiceConformance } from '@adk/core/testing';

import { InMemoryMemoryService } from './in-memory-memory-service';

memoryServiceConformance('InMemoryMemoryService', () => new InMemoryMemoryService());
