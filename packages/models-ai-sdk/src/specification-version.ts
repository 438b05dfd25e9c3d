import { InvalidArgumentError } from '@adk/core';

/** The AI SDK provider specification versions the adapters accept. */
const SUPPORTED = new Set(['v2', 'v3', 'v4']);

/**
 * The specification version of an AI SDK model given to one of the adapters, checked: v2, v3 or
 * v4, with the method the adapter calls (`doStream`, `doEmbed`).
 *
 * @throws InvalidArgumentError naming the adapter (`factory`) and what it expected (`kind`).
 */
export function specificationVersionOf(
  model: unknown,
  expected: { factory: string; kind: string; method: string },
): string {
  const candidate = model as Record<string, unknown> | null;
  const version = candidate?.specificationVersion;
  if (
    typeof version !== 'string' ||
    !SUPPORTED.has(version) ||
    typeof candidate?.[expected.method] !== 'function'
  ) {
    throw new InvalidArgumentError({
      message: `${expected.factory}: expected an AI SDK ${expected.kind} of specification v2, v3 or v4, got ${
        typeof version === 'string' ? `specification ${version}` : 'something else'
      }.`,
      argument: 'model',
    });
  }
  return version;
}
