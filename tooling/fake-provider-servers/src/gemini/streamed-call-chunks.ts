import { chunkString } from '../sse-writer';
import type { FakeReply } from '../types';

type GeminiPart = Record<string, unknown>;

/** True when a `generateContent` body asks for function-call arguments streamed in pieces. */
export function wantsStreamedArguments(body: unknown): boolean {
  const config = (body as { toolConfig?: { functionCallingConfig?: Record<string, unknown> } })
    ?.toolConfig?.functionCallingConfig;
  return config?.streamFunctionCallArguments === true;
}

/**
 * The chunks (one part each) of the reply's function calls with streamed arguments, as Gemini 3
 * sends them with `streamFunctionCallArguments`: per call, a first chunk with the name and
 * `willContinue: true`, then one chunk per `partialArgs` piece (strings split every
 * `argsChunkSize` characters, `willContinue` on all pieces of a string but the last; numbers,
 * booleans and nulls whole), then an empty `functionCall: {}` closing the call.
 */
export function streamedCallChunks(reply: FakeReply): GeminiPart[][] {
  const chunks: GeminiPart[][] = [];
  (reply.toolCalls ?? []).forEach((call, index) => {
    const start: Record<string, unknown> = { name: call.name, willContinue: true };
    if (call.id) start.id = call.id;
    const first: GeminiPart = { functionCall: start };
    if (index === 0 && reply.thinkingSignature) first.thoughtSignature = reply.thinkingSignature;
    chunks.push([first]);
    for (const piece of pieces(call.args, '$', reply.argsChunkSize ?? 7)) {
      const functionCall: Record<string, unknown> = { partialArgs: [piece], willContinue: true };
      if (call.id) functionCall.id = call.id;
      chunks.push([{ functionCall }]);
    }
    chunks.push([{ functionCall: {} }]);
  });
  return chunks;
}

function pieces(value: unknown, path: string, size: number): Array<Record<string, unknown>> {
  if (typeof value === 'string') {
    const parts = chunkString(value, size);
    return parts.map((stringValue, index) => {
      const piece: Record<string, unknown> = { jsonPath: path, stringValue };
      if (index < parts.length - 1) piece.willContinue = true;
      return piece;
    });
  }
  if (typeof value === 'number') return [{ jsonPath: path, numberValue: value }];
  if (typeof value === 'boolean') return [{ jsonPath: path, boolValue: value }];
  if (value === null) return [{ jsonPath: path, nullValue: 'NULL_VALUE' }];
  if (Array.isArray(value)) return value.flatMap((item, i) => pieces(item, `${path}[${i}]`, size));
  return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) =>
    pieces(
      item,
      /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
        ? `${path}.${key}`
        : `${path}['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`,
      size,
    ),
  );
}
