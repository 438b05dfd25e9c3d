import {
  buildContentsIncrementally,
  copyValidEventForStorage,
  createEvent,
  newEventId,
} from '@adk/core';
import type { Content, Event } from '@adk/core';
import { z } from 'zod';

import type { FrameworkHarness } from './framework';
import { loopHarness } from './floor';
import {
  AGENT_NAME,
  CALL_ARGS,
  FINAL_TEXT,
  INSTRUCTION,
  TOOL_NAME,
  lastContentHasFunctionResponse,
  weatherFor,
} from './script';

/** The request this loop hands its model: instruction, one tool declaration, the history. */
interface ContractRequest {
  systemInstruction: string;
  tools: readonly string[];
  contents: Content[];
}

/** The same zero-latency scripted model as every harness: an async generator of responses. */
async function* scriptedModel(request: ContractRequest): AsyncGenerator<Content, void> {
  if (lastContentHasFunctionResponse(request.contents)) {
    yield { role: 'model', parts: [{ text: FINAL_TEXT }] };
  } else {
    yield {
      role: 'model',
      parts: [{ functionCall: { id: newEventId(), name: TOOL_NAME, args: { ...CALL_ARGS } } }],
    };
  }
}

const TOOLS: readonly string[] = [TOOL_NAME];
const ARGS = z.object({ city: z.string() });

/**
 * The **contract floor**: the ideal floor's loop (`floor.ts`) plus only the work that core's
 * public contracts require of every turn, done by core's own exported functions, and nothing of
 * the runtime around it (no invocation context, agent tree, flow, hooks, spans, locks, run
 * records or state). `pnpm bench` quotes it beside the ideal floor: it separates what a turn
 * costs because of what the framework promises from what it costs because of how the runtime is
 * built.
 *
 * - every event is made by `createEvent` (a random UUID id, the time, its own `actions`), with
 *   the turn's invocation id, and every function call gets an id;
 * - every append validates the event (refusing lone surrogates that no store can keep) and stores
 *   a deep frozen copy (a caller can never change what was stored), in one walk as both stores do
 *   (`copyValidEventForStorage`), and the caller is handed the stored copy;
 * - every request's contents are the agent's view of the history (visibility, calls paired with
 *   their responses, others' events as context, user turns at both ends), frozen, built by
 *   `buildContentsIncrementally` as the flow builds them (sharing the stored events' frozen
 *   contents, and from a cached prefix on long sessions);
 * - the tool's arguments are parsed by its zod schema.
 */
export async function createContractFloorHarness(): Promise<FrameworkHarness> {
  let toolCalls = 0;

  function append(events: Event[], invocationId: string, author: string, content: Content): Event {
    const event = createEvent({ invocationId, author, content });
    const stored = copyValidEventForStorage(event);
    events.push(stored);
    return stored;
  }

  async function* turn(events: Event[], text: string) {
    const invocationId = `e-${newEventId()}`;
    yield append(events, invocationId, 'user', { role: 'user', parts: [{ text }] });
    for (;;) {
      const request: ContractRequest = {
        systemInstruction: INSTRUCTION,
        tools: TOOLS,
        contents: buildContentsIncrementally(events, { agentName: AGENT_NAME }),
      };
      let call: { id?: string; name: string; args?: Record<string, unknown> } | undefined;
      for await (const content of scriptedModel(request)) {
        const stored = append(events, invocationId, AGENT_NAME, content);
        call = stored.content?.parts[0]?.functionCall;
        yield stored;
      }
      if (call === undefined) return;
      const args = ARGS.parse(call.args);
      toolCalls++;
      const response = weatherFor(args.city);
      yield append(events, invocationId, AGENT_NAME, {
        role: 'user',
        parts: [{ functionResponse: { id: call.id, name: call.name, response } }],
      });
    }
  }

  return loopHarness('contract-floor', turn, () => toolCalls);
}
