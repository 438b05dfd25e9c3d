import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.ToolArgumentsError');

/** One problem found in tool arguments. */
export interface ToolArgumentIssue {
  /** Dotted path of the offending argument; '' for the arguments object itself. */
  path: string;
  message: string;
}

/** The arguments a model passed to a tool do not match its parameter schema. The tool did not run. */
export class ToolArgumentsError extends AdkError {
  private readonly [MARKER] = true;
  readonly toolName: string;
  readonly issues: ToolArgumentIssue[];

  constructor(options: { toolName: string; issues: ToolArgumentIssue[]; cause?: unknown }) {
    super('ToolArgumentsError', 'INVALID_TOOL_ARGUMENTS', {
      message: `Invalid arguments for tool "${options.toolName}": ${options.issues
        .map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message))
        .join('; ')}`,
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.issues = options.issues;
  }

  static override isInstance(error: unknown): error is ToolArgumentsError {
    return AdkError.hasMarker(error, MARKER);
  }
}
