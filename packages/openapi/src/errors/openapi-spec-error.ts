import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.OpenApiSpecError');

/**
 * An OpenAPI document that cannot become tools: it cannot be read or parsed, it is not a valid
 * OpenAPI 3.0 or 3.1 document (the validator's findings are listed), a `$ref` cannot be resolved,
 * or an operation has no absolute server URL and no `baseUrl` was given.
 */
export class OpenApiSpecError extends AdkError {
  private readonly [MARKER] = true;
  /** Where the document came from: its path or URL, or `"(object)"`. */
  readonly source: string;
  /** The validator's findings, when the document is invalid. */
  readonly problems: readonly string[];

  constructor(options: { source: string; problem: string; problems?: string[]; cause?: unknown }) {
    const problems = options.problems ?? [];
    super('OpenApiSpecError', 'OPENAPI_SPEC_INVALID', {
      message: `OpenAPI document ${options.source}: ${options.problem}${
        problems.length > 0 ? `\n${problems.map((line) => `- ${line}`).join('\n')}` : ''
      }`,
      cause: options.cause,
    });
    this.source = options.source;
    this.problems = problems;
  }

  static override isInstance(error: unknown): error is OpenApiSpecError {
    return AdkError.hasMarker(error, MARKER);
  }
}
