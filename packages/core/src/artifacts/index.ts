export type {
  ArtifactFileRequest,
  ArtifactScope,
  ArtifactService,
  LoadArtifactRequest,
  SaveArtifactRequest,
} from './artifact-service';
