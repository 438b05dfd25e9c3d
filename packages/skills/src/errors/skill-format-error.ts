import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.SkillFormatError');

/**
 * A skill does not follow the Agent Skills format: no `SKILL.md`, no front matter, invalid YAML, a
 * missing or invalid `name` or `description`, or a name that differs from its folder's.
 */
export class SkillFormatError extends AdkError {
  private readonly [MARKER] = true;
  /** The `SKILL.md` file (or the folder, when the file is missing); `undefined` for code skills. */
  readonly file: string | undefined;
  /** The 1-based line of the problem in `file`, when known. */
  readonly line: number | undefined;

  constructor(options: { file?: string; line?: number; problem: string; cause?: unknown }) {
    const where =
      options.file === undefined
        ? 'Skill'
        : `${options.file}${options.line === undefined ? '' : `:${options.line}`}`;
    super('SkillFormatError', 'SKILL_FORMAT', {
      message: `${where}: ${options.problem}`,
      cause: options.cause,
    });
    this.file = options.file;
    this.line = options.line;
  }

  static override isInstance(error: unknown): error is SkillFormatError {
    return AdkError.hasMarker(error, MARKER);
  }
}
