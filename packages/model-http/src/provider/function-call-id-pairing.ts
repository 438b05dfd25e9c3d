import type { FunctionCall, FunctionResponse } from '@adk/core';

import { newFunctionCallId } from './function-call-id';

/**
 * Gives every function call and response of one request's history the id that pairs them, for
 * providers whose wire format requires it (Anthropic `tool_use` / `tool_result`, OpenAI
 * `tool_calls` / `tool`): a call without an id gets a new one, and a response without an id
 * answers the oldest unanswered call of the same name (or gets a new id when there is none).
 * Use one instance per request, fed the parts in conversation order.
 *
 * @example
 * ```ts
 * const ids = new FunctionCallIdPairing();
 * for (const part of parts) {
 *   if (part.functionCall) blocks.push({ type: 'tool_use', id: ids.callId(part.functionCall) });
 *   if (part.functionResponse)
 *     blocks.push({ type: 'tool_result', tool_use_id: ids.responseId(part.functionResponse) });
 * }
 * ```
 */
export class FunctionCallIdPairing {
  /** Ids of the calls not answered yet, oldest first, by function name. */
  readonly #pending = new Map<string, string[]>();

  /** The id to send for `call` (its own, or a new one); it now awaits a response. */
  callId(call: Pick<FunctionCall, 'id' | 'name'>): string {
    const id = call.id || newFunctionCallId();
    const queue = this.#pending.get(call.name);
    if (queue) queue.push(id);
    else this.#pending.set(call.name, [id]);
    return id;
  }

  /**
   * The id to send for `response`: its own, else the oldest unanswered call of the same name, else
   * a new one. The call it answers no longer awaits a response.
   */
  responseId(response: Pick<FunctionResponse, 'id' | 'name'>): string {
    const queue = this.#pending.get(response.name) ?? [];
    const id = response.id || queue[0] || newFunctionCallId();
    const index = queue.indexOf(id);
    if (index >= 0) queue.splice(index, 1);
    return id;
  }
}
