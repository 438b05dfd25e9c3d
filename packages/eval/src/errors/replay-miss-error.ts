import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.ReplayMissError');

/**
 * `ReplayModel` was asked a request its cassette does not hold. `diff` shows the request against
 * the nearest recorded one (lines prefixed `-` recorded, `+` asked), so the change that broke the
 * replay is visible at once.
 */
export class ReplayMissError extends AdkError {
  private readonly [MARKER] = true;
  readonly cassette: string;
  /** Line diff between the nearest recorded request and the one asked (empty when the cassette is empty). */
  readonly diff: string;

  constructor(options: { cassette: string; diff: string; reason: string }) {
    super('ReplayMissError', 'REPLAY_MISS', {
      message: `No recorded response in ${options.cassette} for this request: ${options.reason}${
        options.diff
          ? `\nDiff against the nearest recorded request (- recorded, + asked):\n${options.diff}`
          : ''
      }`,
    });
    this.cassette = options.cassette;
    this.diff = options.diff;
  }

  static override isInstance(error: unknown): error is ReplayMissError {
    return AdkError.hasMarker(error, MARKER);
  }
}
