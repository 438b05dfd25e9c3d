import type { CallbackContext, MemoryEntry, ReadonlyContext } from '@adk/core';

/** A context that can search memory (every callback or tool context can). */
export type MemoryAccess = ReadonlyContext & Pick<CallbackContext, 'searchMemory'>;

/** True when the context offers `searchMemory`. */
export function hasMemoryAccess(context: ReadonlyContext): context is MemoryAccess {
  return typeof (context as Partial<MemoryAccess>).searchMemory === 'function';
}

/** The text of a memory entry (its text parts, joined). */
export function memoryText(entry: MemoryEntry): string {
  return entry.content.parts
    .map((p) => p.text ?? '')
    .filter((t) => t !== '')
    .join('\n');
}

/** ISO time of an entry, when it has one. */
export function memoryTime(entry: MemoryEntry): string | undefined {
  return entry.timestamp === undefined ? undefined : new Date(entry.timestamp).toISOString();
}
