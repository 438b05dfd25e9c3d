export type {
  ArtifactFileRequest,
  ArtifactScope,
  ArtifactService,
  ArtifactVersion,
  LoadArtifactRequest,
  SaveArtifactRequest,
} from './artifact-service';
export {
  artifactMimeType,
  isUserScopedArtifact,
  MAX_ARTIFACT_NAME_LENGTH,
  USER_ARTIFACT_PREFIX,
  validateArtifactName,
  validateArtifactPart,
  validateArtifactVersion,
} from './artifact-validation';
