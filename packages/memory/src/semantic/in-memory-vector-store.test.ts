import { semanticMemoryConformance } from '../testing/vitest';
import { InMemoryVectorStore } from './in-memory-vector-store';

semanticMemoryConformance('InMemoryVectorStore', () => new InMemoryVectorStore());
