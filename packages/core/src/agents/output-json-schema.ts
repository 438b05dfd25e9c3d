import { z } from 'zod';

import type { JsonSchema } from '../models';

/** The JSON Schema of an output schema, without the `$schema` marker providers reject. */
export function toOutputJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...jsonSchema } = z.toJSONSchema(schema, {
    unrepresentable: 'any',
  }) as JsonSchema;
  return jsonSchema;
}
