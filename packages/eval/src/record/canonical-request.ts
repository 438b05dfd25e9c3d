import type { LlmRequest } from '@adk/core';

function canonical(value: unknown, dropIds: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => canonical(item, dropIds));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    out[key] = canonical(item, dropIds);
  }
  if (dropIds && ('functionCall' in out || 'functionResponse' in out)) {
    for (const key of ['functionCall', 'functionResponse']) {
      const inner = out[key] as Record<string, unknown> | undefined;
      if (inner && 'id' in inner) {
        const { id: _id, ...rest } = inner;
        out[key] = rest;
      }
    }
  }
  return out;
}

/**
 * The part of a request a cassette matches on: model, system instruction, contents and config,
 * keys sorted, `undefined` dropped, and function call ids removed (the flow makes them up per
 * run, so they would never match).
 */
export function canonicalRequest(request: LlmRequest): unknown {
  return canonical(
    {
      model: request.model,
      systemInstruction: request.systemInstruction,
      contents: request.contents,
      config: request.config,
    },
    true,
  );
}

/** The canonical request as one JSON string, the cassette's match key. */
export function requestKey(request: LlmRequest): string {
  return JSON.stringify(canonicalRequest(request));
}
