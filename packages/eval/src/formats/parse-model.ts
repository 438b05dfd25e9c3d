import type { z } from 'zod';

import { EvalFileError } from '../errors';
import { pathInOriginal, toCamelKeys, type FieldSpec } from '../schema/key-spec';

/** Parse JSON text, turning a syntax error into an {@link EvalFileError}. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new EvalFileError({
      file,
      issues: [{ path: '', message: `not valid JSON (${(error as Error).message})` }],
      cause: error,
    });
  }
}

/**
 * Validate `json` (either spelling of the model fields) against `schema`; a failure names the
 * path of every bad field in the spelling the input used.
 */
export function parseModel<S extends z.ZodType>(
  schema: S,
  spec: FieldSpec,
  json: unknown,
  file: string,
): z.output<S> {
  const result = schema.safeParse(toCamelKeys(json, spec));
  if (result.success) return result.data;
  throw new EvalFileError({
    file,
    issues: result.error.issues.map((issue) => ({
      path: pathInOriginal(json, issue.path),
      message: issue.message,
    })),
    cause: result.error,
  });
}
