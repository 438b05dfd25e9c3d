import { artifactServiceConformance } from '@adk/core/testing/vitest';

import { InMemoryArtifactService } from './in-memory-artifact-service';

artifactServiceConformance('InMemoryArtifactService', () => new InMemoryArtifactService());
