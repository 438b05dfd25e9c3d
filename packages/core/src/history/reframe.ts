import type { Content, FunctionCall, FunctionResponse, Part } from '../content';
import { isEmptyPart } from './history';

/** First part of a content that relays another agent's messages. */
export const CONTEXT_HEADER = 'For context:';

/** JSON text of a value, falling back to `String(value)` for what JSON cannot express. */
export function stringifyForContext(value: unknown): string {
  try {
    const json = JSON.stringify(value);
    return json === undefined ? String(value) : json;
  } catch {
    return String(value);
  }
}

/** How another agent's function call reads for the current agent. */
export function describeCall(author: string, call: FunctionCall): string {
  return `[${author}] called tool \`${call.name}\` with parameters: ${stringifyForContext(call.args ?? {})}`;
}

/** How another agent's function result reads for the current agent. */
export function describeResponse(author: string, response: FunctionResponse): string {
  return `[${author}] tool \`${response.name}\` returned result: ${stringifyForContext(response.response)}`;
}

/**
 * Rewrite parts another agent produced as context for the current agent: a user-role content
 * starting with `For context:` whose text parts read `[author] said: ...`, so a model never takes
 * another agent's words (or tool calls) for its own. Thoughts are dropped; media parts are kept.
 * Returns `undefined` when nothing remains.
 */
export function reframeAsContext(author: string, parts: readonly Part[]): Content | undefined {
  const out: Part[] = [];
  for (const part of parts) {
    if (isEmptyPart(part) || part.thought) continue;
    if (part.functionCall) out.push({ text: describeCall(author, part.functionCall) });
    else if (part.functionResponse)
      out.push({ text: describeResponse(author, part.functionResponse) });
    else if (part.text !== undefined && part.text !== '')
      out.push({ text: `[${author}] said: ${part.text}` });
    else out.push({ ...part });
  }
  if (out.length === 0) return undefined;
  return { role: 'user', parts: [{ text: CONTEXT_HEADER }, ...out] };
}
