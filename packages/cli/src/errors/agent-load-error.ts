import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.AgentLoadError');

/** An agent file or folder could not be loaded, or exports no agent. */
export class AgentLoadError extends AdkError {
  private readonly [MARKER] = true;
  /** The file or folder that failed. */
  readonly path: string;
  /**
   * Why: `not-found` (no such file or folder), `import-failed` (the module threw or does not
   * compile), `no-agent` (it loads but exports no agent).
   */
  readonly reason: 'not-found' | 'import-failed' | 'no-agent';

  constructor(options: {
    path: string;
    message: string;
    reason?: 'not-found' | 'import-failed' | 'no-agent';
    cause?: unknown;
  }) {
    super('AgentLoadError', 'AGENT_LOAD_FAILED', options);
    this.path = options.path;
    this.reason = options.reason ?? 'import-failed';
  }

  static override isInstance(error: unknown): error is AgentLoadError {
    return AdkError.hasMarker(error, MARKER);
  }
}
