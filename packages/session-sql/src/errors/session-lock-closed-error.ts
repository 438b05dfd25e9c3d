import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.SessionLockClosedError');

/** A session lock was asked for after `close()`: the run cannot be serialized with other processes. */
export class SessionLockClosedError extends AdkError {
  private readonly [MARKER] = true;

  constructor() {
    super('SessionLockClosedError', 'SESSION_LOCK_CLOSED', {
      message: 'The session lock is closed; open a new one to run turns.',
    });
  }

  static override isInstance(error: unknown): error is SessionLockClosedError {
    return AdkError.hasMarker(error, MARKER);
  }
}
