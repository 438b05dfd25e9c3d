import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.A2aAuthenticationError');

/** An A2A request carried no valid credential for the server's `security` (refused before any run). */
export class A2aAuthenticationError extends AdkError {
  private readonly [MARKER] = true;

  constructor() {
    super('A2aAuthenticationError', 'A2A_UNAUTHENTICATED', {
      message: 'Authentication required: see the agent card.',
    });
  }

  static override isInstance(error: unknown): error is A2aAuthenticationError {
    return AdkError.hasMarker(error, MARKER);
  }
}
