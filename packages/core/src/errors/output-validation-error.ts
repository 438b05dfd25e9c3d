import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.OutputValidationError');

/** An agent's final answer does not match its `outputSchema` (not JSON, or JSON of the wrong shape). */
export class OutputValidationError extends AdkError {
  private readonly [MARKER] = true;
  readonly agentName: string;
  readonly issues: string[];

  constructor(options: { agentName: string; issues: string[]; cause?: unknown }) {
    super('OutputValidationError', 'OUTPUT_VALIDATION_FAILED', {
      message: `Output of agent "${options.agentName}" does not match its outputSchema: ${options.issues.join('; ')}`,
      cause: options.cause,
    });
    this.agentName = options.agentName;
    this.issues = options.issues;
  }

  static override isInstance(error: unknown): error is OutputValidationError {
    return AdkError.hasMarker(error, MARKER);
  }
}
