import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.ArtifactPathError');

/**
 * `FileArtifactService` refused an operation because the storage path would leave its root
 * directory (for example through a symbolic link planted under the root), or because a scope id
 * cannot be stored as a directory name. Nothing was read or written.
 */
export class ArtifactPathError extends AdkError {
  private readonly [MARKER] = true;
  /** The path that was refused. */
  readonly path: string;

  constructor(options: { path: string; message: string; cause?: unknown }) {
    super('ArtifactPathError', 'ARTIFACT_PATH', { message: options.message, cause: options.cause });
    this.path = options.path;
  }

  static override isInstance(error: unknown): error is ArtifactPathError {
    return AdkError.hasMarker(error, MARKER);
  }
}
