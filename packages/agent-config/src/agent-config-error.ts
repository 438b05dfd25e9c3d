import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.AgentConfigError');

/**
 * An agent configuration that cannot be built: invalid YAML, a field that is unknown or of the
 * wrong type, a reference to code or another file that cannot be resolved. The message names the
 * file and line (`agents/helper/root_agent.yaml:7: ...`).
 */
export class AgentConfigError extends AdkError {
  private readonly [MARKER] = true;
  readonly file: string;
  /** 1-based line of the offending entry, when known. */
  readonly line: number | undefined;
  /** The offending field's path in the document (`tools.0.name`), when known. */
  readonly path: string | undefined;

  constructor(options: {
    file: string;
    line?: number;
    path?: string;
    problem: string;
    cause?: unknown;
  }) {
    super('AgentConfigError', 'AGENT_CONFIG_INVALID', {
      message: `${options.file}${options.line === undefined ? '' : `:${options.line}`}: ${
        options.path ? `${options.path}: ` : ''
      }${options.problem}`,
      cause: options.cause,
    });
    this.file = options.file;
    this.line = options.line;
    this.path = options.path;
  }

  static override isInstance(error: unknown): error is AgentConfigError {
    return AdkError.hasMarker(error, MARKER);
  }
}
