export { ArtifactPathError } from './artifact-path-error';
export { UnsupportedDialectError } from './unsupported-dialect-error';
