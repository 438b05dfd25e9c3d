import { getText, type Content } from '@adk/core';
import type { z } from 'zod';

/** True when `value` is a `Content` (a message: a role and parts). */
export function isContent(value: unknown): value is Content {
  return (
    value !== null &&
    typeof value === 'object' &&
    Array.isArray((value as Content).parts) &&
    typeof (value as Content).role === 'string'
  );
}

/**
 * A `Content` input as a function node takes it (Python converts a `Content` for a parameter
 * typed `str`): its text; with an `inputSchema` that does not take that text, the text read as
 * JSON. Any other input is returned as it is.
 */
export function contentAsValue(input: unknown, schema: z.ZodType | undefined): unknown {
  if (!isContent(input)) return input;
  const text = getText(input);
  if (!schema || schema.safeParse(text).success) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
