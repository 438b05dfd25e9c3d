import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.EvalFileError');

/** One problem found in an eval file: where it is (`evalCases[0].conversation[1].userContent`) and what is wrong. */
export interface EvalFileIssue {
  /** Path of the bad field, in the spelling the file uses (`eval_cases[0].eval_id`). */
  path: string;
  message: string;
}

/**
 * What a message calls the input: `eval file <path>` for a file, else the description given
 * (`request body`, `<eval set>`).
 */
function subject(file: string): string {
  return /[/\\]|\.jsonl?$/.test(file) ? `eval file ${file}` : file;
}

/**
 * An eval set, legacy test file, eval config or eval result could not be read: not JSON, or a
 * field is missing or has the wrong type. `issues` names the path of every bad field.
 */
export class EvalFileError extends AdkError {
  private readonly [MARKER] = true;
  /** The file's path, or a description of the input when it did not come from a file (`request body`). */
  readonly file: string;
  readonly issues: readonly EvalFileIssue[];

  constructor(options: { file: string; issues: readonly EvalFileIssue[]; cause?: unknown }) {
    const detail = options.issues
      .slice(0, 5)
      .map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message))
      .join('; ');
    const more = options.issues.length > 5 ? ` (and ${options.issues.length - 5} more)` : '';
    super('EvalFileError', 'EVAL_FILE_INVALID', {
      message: `Invalid ${subject(options.file)}: ${detail}${more}`,
      cause: options.cause,
    });
    this.file = options.file;
    this.issues = options.issues;
  }

  static override isInstance(error: unknown): error is EvalFileError {
    return AdkError.hasMarker(error, MARKER);
  }
}
