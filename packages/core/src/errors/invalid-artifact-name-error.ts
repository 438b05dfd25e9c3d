import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.InvalidArtifactNameError');

/**
 * An artifact name was refused: empty, too long, `.` or `..`, or containing a path separator
 * (`/`, `\`), a NUL or another control character. Nothing was read or written.
 */
export class InvalidArtifactNameError extends AdkError {
  private readonly [MARKER] = true;
  /** The refused name. */
  readonly filename: string;
  /** Why it was refused, e.g. `contains a path separator`. */
  readonly reason: string;

  constructor(options: { filename: string; reason: string; cause?: unknown }) {
    super('InvalidArtifactNameError', 'INVALID_ARTIFACT_NAME', {
      message: `Invalid artifact name ${JSON.stringify(options.filename)}: ${options.reason}.`,
      cause: options.cause,
    });
    this.filename = options.filename;
    this.reason = options.reason;
  }

  static override isInstance(error: unknown): error is InvalidArtifactNameError {
    return AdkError.hasMarker(error, MARKER);
  }
}
