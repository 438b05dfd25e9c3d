import { artifactServiceConformance } from '@adk/core/testing';

import { InMemoryArtifactService } from './in-memory-artifact-service';

artifactServiceConformance('InMemoryArtifactService', () => new InMemoryArtifactService());
