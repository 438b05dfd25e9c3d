import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.AgentCardError');

/** An agent card could not be fetched, or it lacks what a client needs (`url`, `name`...). */
export class AgentCardError extends AdkError {
  private readonly [MARKER] = true;
  /** Where the card was looked up, when it was fetched. */
  readonly url: string | undefined;

  constructor(options: { message: string; url?: string; cause?: unknown }) {
    super('AgentCardError', 'A2A_AGENT_CARD_INVALID', {
      message: options.message,
      cause: options.cause,
    });
    this.url = options.url;
  }

  static override isInstance(error: unknown): error is AgentCardError {
    return AdkError.hasMarker(error, MARKER);
  }
}
