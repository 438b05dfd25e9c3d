import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.AgentLoadError');

/** An agent file or folder could not be loaded, or exports no agent. */
export class AgentLoadError extends AdkError {
  private readonly [MARKER] = true;
  /** The file or folder that failed. */
  readonly path: string;

  constructor(options: { path: string; message: string; cause?: unknown }) {
    super('AgentLoadError', 'AGENT_LOAD_FAILED', options);
    this.path = options.path;
  }

  static override isInstance(error: unknown): error is AgentLoadError {
    return AdkError.hasMarker(error, MARKER);
  }
}
