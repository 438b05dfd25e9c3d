export { ArtifactPathError } from './artifact-path-error';
export { CorruptArtifactError } from './corrupt-artifact-error';
export { UnsupportedDialectError } from './unsupported-dialect-error';
