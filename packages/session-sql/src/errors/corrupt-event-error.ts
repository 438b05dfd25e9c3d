import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.CorruptEventError');

/**
 * A stored event row cannot be read back as an event (its `event_data` is not valid JSON, or lacks
 * a required field). Names the session and the event so the row can be inspected and repaired.
 */
export class CorruptEventError extends AdkError {
  private readonly [MARKER] = true;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly eventId: string;

  constructor(options: {
    appName: string;
    userId: string;
    sessionId: string;
    eventId: string;
    reason: string;
    cause?: unknown;
  }) {
    super('CorruptEventError', 'CORRUPT_EVENT', {
      message: `Event "${options.eventId}" of session "${options.sessionId}" (user "${options.userId}", app "${options.appName}") cannot be read: ${options.reason}`,
      cause: options.cause,
    });
    this.appName = options.appName;
    this.userId = options.userId;
    this.sessionId = options.sessionId;
    this.eventId = options.eventId;
  }

  static override isInstance(error: unknown): error is CorruptEventError {
    return AdkError.hasMarker(error, MARKER);
  }
}
