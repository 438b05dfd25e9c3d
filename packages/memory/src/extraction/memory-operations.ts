import { MemoryExtractionError } from '../errors/memory-extraction-error';

/** One consolidation step the extraction model asks for. */
export type MemoryOperation =
  | { op: 'add'; text: string }
  | { op: 'update'; id: string; text: string }
  | { op: 'merge'; ids: string[]; text: string }
  | { op: 'forget'; id: string };

const isText = (value: unknown): value is string =>
  typeof value === 'string' && value.trim() !== '';

/** The JSON object in a model answer (bare, or in a ```json fence). */
function jsonOf(answer: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(answer)?.[1];
  const text = (fenced ?? answer).trim();
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start)
    throw new MemoryExtractionError({ message: 'the answer holds no JSON object', answer });
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch (cause) {
    throw new MemoryExtractionError({ message: 'the answer is not valid JSON', answer, cause });
  }
}

/**
 * The operations of an extraction answer `{"operations": [...]}`, checked one by one.
 *
 * @throws {MemoryExtractionError} when the answer is not that shape; nothing is applied then.
 */
export function parseMemoryOperations(answer: string): MemoryOperation[] {
  const value = jsonOf(answer) as { operations?: unknown };
  if (!Array.isArray(value?.operations))
    throw new MemoryExtractionError({ message: 'the answer has no "operations" list', answer });
  return value.operations.map((raw: unknown, index: number): MemoryOperation => {
    const o = (raw ?? {}) as Record<string, unknown>;
    if (o.op === 'add' && isText(o.text)) return { op: 'add', text: o.text.trim() };
    if (o.op === 'update' && isText(o.id) && isText(o.text))
      return { op: 'update', id: o.id, text: o.text.trim() };
    if (
      o.op === 'merge' &&
      Array.isArray(o.ids) &&
      o.ids.length > 0 &&
      o.ids.every(isText) &&
      isText(o.text)
    )
      return { op: 'merge', ids: o.ids, text: o.text.trim() };
    if (o.op === 'forget' && isText(o.id)) return { op: 'forget', id: o.id };
    throw new MemoryExtractionError({
      message: `operation ${index} is not add, update, merge or forget with its fields`,
      answer,
    });
  });
}
