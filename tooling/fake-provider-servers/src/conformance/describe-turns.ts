import type { RecordedRequest } from '../types';

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/**
 * One turn of a recorded request's conversation, in wire order, in neutral terms: who speaks, and
 * what each item is (`text`, `call:<id>`, `result:<id>`). The system prompt is not a turn.
 * Consecutive wire messages of one role are kept apart (the check is on what was sent).
 */
export interface WireTurn {
  role: 'user' | 'model';
  items: string[];
}

/** The turns of a recorded Gemini `generateContent` request. */
export function describeGeminiTurns(request: RecordedRequest): WireTurn[] {
  return list((request.body as Json).contents).map((content) => ({
    role: content.role === 'model' ? 'model' : 'user',
    items: list(content.parts).map((part) => {
      const call = part.functionCall as Json | undefined;
      if (call) return `call:${String(call.id ?? call.name)}`;
      const result = part.functionResponse as Json | undefined;
      if (result) return `result:${String(result.id ?? result.name)}`;
      return 'text';
    }),
  }));
}

/** The turns of a recorded Anthropic Messages request. */
export function describeAnthropicTurns(request: RecordedRequest): WireTurn[] {
  return list((request.body as Json).messages).map((message) => ({
    role: message.role === 'assistant' ? 'model' : 'user',
    items:
      typeof message.content === 'string'
        ? ['text']
        : list(message.content).map((block) => {
            if (block.type === 'tool_use') return `call:${String(block.id)}`;
            if (block.type === 'tool_result') return `result:${String(block.tool_use_id)}`;
            return String(block.type);
          }),
  }));
}

/**
 * The turns of a recorded Chat Completions request: `tool` messages count as user turns (each its
 * own), the system or developer message is left out.
 */
export function describeOpenAITurns(request: RecordedRequest): WireTurn[] {
  const turns: WireTurn[] = [];
  for (const message of list((request.body as Json).messages)) {
    if (message.role === 'system' || message.role === 'developer') continue;
    if (message.role === 'tool') {
      turns.push({ role: 'user', items: [`result:${String(message.tool_call_id)}`] });
      continue;
    }
    const items: string[] = [];
    if (message.content !== undefined && message.content !== null && message.content !== '')
      items.push('text');
    for (const call of list(message.tool_calls)) items.push(`call:${String(call.id)}`);
    turns.push({ role: message.role === 'assistant' ? 'model' : 'user', items });
  }
  return turns;
}

/**
 * The problems of a conversation a provider may reject or misread, empty when there is none: it
 * must start with a user turn, end with a user turn (a trailing model turn is a prefill to
 * Anthropic), and every call must be answered by a result in the turn(s) right after it, before
 * any other model turn or user text.
 */
export function turnProblems(turns: readonly WireTurn[]): string[] {
  const problems: string[] = [];
  if (turns.length === 0) return ['no turn at all'];
  if (turns[0]!.role !== 'user') problems.push('starts with a model turn');
  if (turns[turns.length - 1]!.role !== 'user') problems.push('ends with a model turn');
  turns.forEach((turn, index) => {
    const calls = turn.items.filter((item) => item.startsWith('call:')).map((c) => c.slice(5));
    if (calls.length === 0) return;
    const answered = new Set<string>();
    for (let next = index + 1; next < turns.length && turns[next]!.role === 'user'; next++) {
      const items = turns[next]!.items;
      let resultsFirst = true;
      for (const item of items) {
        if (item.startsWith('result:') && resultsFirst) answered.add(item.slice(7));
        else resultsFirst = false;
      }
      if (!resultsFirst || items.every((item) => !item.startsWith('result:'))) break;
    }
    for (const call of calls) {
      if (!answered.has(call)) problems.push(`call ${call} of turn ${index} is not answered next`);
    }
  });
  return problems;
}
