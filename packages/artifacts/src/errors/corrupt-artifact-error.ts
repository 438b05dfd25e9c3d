import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.CorruptArtifactError');

/**
 * A stored artifact version cannot be read back: its metadata is not valid JSON, does not have the
 * shape the service wrote, or names another version. Nothing was changed; other versions of the
 * file and other files stay readable. Not retryable: the stored data has to be repaired or deleted.
 */
export class CorruptArtifactError extends AdkError {
  private readonly [MARKER] = true;
  /** Where the unreadable metadata is (a file path, or `table/app/user/session/file/version`). */
  readonly location: string;

  constructor(options: { location: string; reason: string; cause?: unknown }) {
    super('CorruptArtifactError', 'ARTIFACT_CORRUPT', {
      message: `Artifact metadata at "${options.location}" is corrupt: ${options.reason}.`,
      cause: options.cause,
    });
    this.location = options.location;
  }

  static override isInstance(error: unknown): error is CorruptArtifactError {
    return AdkError.hasMarker(error, MARKER);
  }
}
