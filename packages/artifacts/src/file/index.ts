export { FileArtifactService, type FileArtifactServiceOptions } from './file-artifact-service';
