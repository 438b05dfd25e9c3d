import type { Content, FunctionCall, FunctionResponse } from '@adk/core';

import type { IntermediateData } from '../schema';

/** The text parts of a content joined with newlines, as Python's evaluators read a response. */
export function textOf(
  content: { parts?: readonly { text?: string | undefined }[] } | undefined,
): string {
  if (!content?.parts) return '';
  return content.parts
    .map((part) => part.text)
    .filter((text): text is string => typeof text === 'string' && text !== '')
    .join('\n');
}

/** Every tool call of an invocation, from either form of intermediate data. */
export function toolCallsOf(data: IntermediateData | undefined): FunctionCall[] {
  if (!data) return [];
  if (data.toolUses) return data.toolUses as FunctionCall[];
  return (data.invocationEvents ?? []).flatMap((event) =>
    ((event.content as Content | undefined)?.parts ?? [])
      .map((part) => part.functionCall)
      .filter((call): call is FunctionCall => call !== undefined),
  );
}

/** Every tool response of an invocation, from either form of intermediate data. */
export function toolResponsesOf(data: IntermediateData | undefined): FunctionResponse[] {
  if (!data) return [];
  if (data.toolResponses) return data.toolResponses as FunctionResponse[];
  return (data.invocationEvents ?? []).flatMap((event) =>
    ((event.content as Content | undefined)?.parts ?? [])
      .map((part) => part.functionResponse)
      .filter((response): response is FunctionResponse => response !== undefined),
  );
}

/** Deep equality of JSON values (Python's `==` on dicts and lists). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((k) => left[k] !== undefined);
  const otherKeys = Object.keys(right).filter((k) => right[k] !== undefined);
  return (
    keys.length === otherKeys.length &&
    keys.every((k) => k in right && jsonEqual(left[k], right[k]))
  );
}
