import { InMemoryJobStore } from '../src';
import { jobStoreConformance } from '../src/testing/vitest';

jobStoreConformance('InMemoryJobStore', (clock) => new InMemoryJobStore({ clock }));
