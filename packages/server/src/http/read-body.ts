import type { Context } from 'hono';
import { z } from 'zod';

import { httpError } from './http-error';

/**
 * Read and validate a JSON body. An empty body is `undefined` (let the schema decide whether
 * that is allowed); malformed JSON and schema failures are 400s with a message naming the field.
 */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const text = await c.req.text();
  let json: unknown = undefined;
  if (text.trim() !== '') {
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw httpError(400, `The request body is not valid JSON: ${(error as Error).message}`);
    }
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    throw httpError(
      400,
      `Invalid request body: ${z.prettifyError(result.error).replaceAll('\n', '; ')}`,
    );
  }
  return result.data;
}
