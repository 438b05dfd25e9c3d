export { InMemoryArtifactService } from './in-memory-artifact-service';
