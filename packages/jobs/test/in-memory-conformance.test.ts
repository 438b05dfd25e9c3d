import { InMemoryJobStore } from '../src';
import { jobStoreConformance } from '../src/testing';

jobStoreConformance('InMemoryJobStore', (clock) => new InMemoryJobStore({ clock }));
