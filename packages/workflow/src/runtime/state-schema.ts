import type { z } from 'zod';

import { NodeDataError } from '../errors/node-data-error';

/** The keys a state schema declares (an object schema's shape), or undefined for another schema. */
function declaredKeys(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const shape = (schema as { shape?: unknown }).shape;
  return shape !== null && typeof shape === 'object'
    ? (shape as Record<string, z.ZodType>)
    : undefined;
}

/**
 * @internal Check the state a node wrote against the workflow's `stateSchema` (Python ADK's
 * `state_schema`): every key must be declared and its value must match. A mismatch fails the
 * node with a `NodeDataError` (direction `output`), before anything is stored.
 */
export function checkStateDelta(
  schema: z.ZodType,
  nodeName: string,
  delta: Readonly<Record<string, unknown>>,
): void {
  const shape = declaredKeys(schema);
  if (!shape) return;
  for (const [key, value] of Object.entries(delta)) {
    const field = shape[key];
    if (!field) {
      throw new NodeDataError({
        nodeName,
        direction: 'output',
        message: `Node "${nodeName}" wrote state key "${key}", which the workflow's stateSchema does not declare (declared: ${Object.keys(shape).join(', ')}).`,
      });
    }
    // A deleted key (undefined or null) is always allowed.
    if (value === undefined || value === null) continue;
    const parsed = field.safeParse(value);
    if (!parsed.success) {
      throw new NodeDataError({
        nodeName,
        direction: 'output',
        message: `Node "${nodeName}" wrote state key "${key}" with a value its stateSchema refuses: ${parsed.error.message}`,
        cause: parsed.error,
      });
    }
  }
}

/**
 * @internal The state keys that function nodes read (`stateKeys`) and `schema` does not declare,
 * as `node.key` (Python refuses such a workflow at construction).
 */
export function undeclaredStateKeys(
  schema: z.ZodType,
  readers: ReadonlyArray<{ name: string; stateKeys: readonly string[] }>,
): string[] {
  const shape = declaredKeys(schema);
  if (!shape) return [];
  return readers.flatMap((reader) =>
    reader.stateKeys.filter((key) => !(key in shape)).map((key) => `${reader.name}.${key}`),
  );
}
