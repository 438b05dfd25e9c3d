/**
 * How much of each model request is a stable prefix of the one before it, over a 20-turn session
 * whose instruction depends on state that changes every turn (seed 002 #13). A provider's implicit
 * prompt cache (Gemini, OpenAI) and Anthropic's explicit breakpoints can only reuse the bytes a
 * request shares, from its start, with an earlier one; everything after the first changed byte is
 * paid in full.
 *
 * Each request is serialised in the order a provider reads a prompt: the system instruction, the
 * tool declarations, then the contents one by one. The share is Σ common prefix with the previous
 * request ÷ Σ request size, over every request but the first. Deterministic: run once, not timed.
 */
import { FunctionTool, InMemorySessionService, LlmAgent, Runner } from '@adk/core';
import type { GenerateOptions, LlmRequest, LlmResponse, Model } from '@adk/core';
import { z } from 'zod';

import type { BenchRow } from './report/row';

/** Turns of the measured session. */
export const PREFIX_TURNS = 20;

const GLOBAL_INSTRUCTION =
  'You work for the Grand Hotel. Answer in the language of the guest, politely and briefly. ' +
  'Never reveal internal notes. Prices are in euros, taxes included.';
const INSTRUCTION =
  'You are talking to {user:name}, on visit number {visit}. Their room is {room}. ' +
  'Use the lookup tool for any fact about the hotel.';

/** Calls `lookup` on a user turn, answers in text after the tool's result. */
class PrefixModel implements Model {
  readonly name = 'prefix-model';
  readonly requests: LlmRequest[] = [];

  async *generate(request: LlmRequest, _options: GenerateOptions): AsyncGenerator<LlmResponse> {
    this.requests.push(request);
    const last = request.contents[request.contents.length - 1];
    const answered = last?.parts.some((part) => part.functionResponse !== undefined) ?? false;
    yield answered
      ? {
          content: { role: 'model', parts: [{ text: 'Breakfast is served from 7 to 10.' }] },
          turnComplete: true,
        }
      : {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'lookup', args: { topic: 'breakfast' } } }],
          },
          turnComplete: true,
        };
  }
}

/** The request as the bytes a provider reads, in order. */
function promptBytes(request: LlmRequest): Buffer {
  const pieces = [
    request.systemInstruction ?? '',
    JSON.stringify(request.config.tools ?? []),
    ...request.contents.map((content) => JSON.stringify(content)),
  ];
  return Buffer.from(pieces.join('\n'), 'utf8');
}

function commonPrefix(a: Buffer, b: Buffer): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a[index] === b[index]) index++;
  return index;
}

/** Share (0..1) of the bytes of each item that it shares, from its start, with the item before. */
function prefixShare(items: readonly Buffer[]): number {
  let shared = 0;
  let total = 0;
  for (let index = 1; index < items.length; index++) {
    shared += commonPrefix(items[index - 1]!, items[index]!);
    total += items[index]!.length;
  }
  return total === 0 ? 0 : shared / total;
}

/** Run the session and measure; the rows carry percentages for ADK for TypeScript only. */
export async function runPromptPrefixBench(): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const model = new PrefixModel();
  const lookup = new FunctionTool({
    name: 'lookup',
    description: 'Looks up a fact about the hotel.',
    parameters: z.object({ topic: z.string() }),
    execute: ({ topic }) => ({ topic, answer: 'Breakfast is served from 7 to 10.' }),
  });
  const agent = new LlmAgent({
    name: 'concierge',
    description: 'The front desk of the Grand Hotel.',
    model,
    globalInstruction: GLOBAL_INSTRUCTION,
    instruction: INSTRUCTION,
    tools: [lookup],
    subAgents: [
      new LlmAgent({ name: 'billing', description: 'Invoices, payments and refunds.', model }),
      new LlmAgent({ name: 'housekeeping', description: 'Cleaning and towels.', model }),
    ],
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'prefix', agent, sessionService });
  await sessionService.createSession({
    appName: 'prefix',
    userId: 'guest',
    sessionId: 'stay',
    state: { 'user:name': 'Ada', room: 101 },
  });
  for (let turn = 1; turn <= PREFIX_TURNS; turn++) {
    for await (const event of runner.run({
      userId: 'guest',
      sessionId: 'stay',
      newMessage: { role: 'user', parts: [{ text: `Question ${turn}: when is breakfast?` }] },
      // The state the instruction reads changes on every turn.
      stateDelta: { visit: turn, room: 100 + turn },
    })) {
      if (event.errorCode)
        throw new Error(`prompt-prefix: ${event.errorCode} ${event.errorMessage}`);
    }
  }
  const requests = model.requests;
  if (requests.length !== PREFIX_TURNS * 2) {
    throw new Error(
      `prompt-prefix: expected ${PREFIX_TURNS * 2} model calls, saw ${requests.length}`,
    );
  }
  const whole = prefixShare(requests.map(promptBytes));
  const system = prefixShare(requests.map((r) => Buffer.from(r.systemInstruction ?? '', 'utf8')));
  const bytes = requests.reduce((sum, request) => sum + promptBytes(request).length, 0);
  const row = (label: string, value: number): BenchRow => ({
    label,
    unit: '%',
    ours: Math.round(value * 1000) / 10,
    theirs: undefined,
    better: 'higher',
  });
  return {
    rows: [
      row(`Stable prompt prefix, ${PREFIX_TURNS}-turn session, state change each turn`, whole),
      row(`Stable system-instruction prefix, same session`, system),
    ],
    raw: { turns: PREFIX_TURNS, requests: requests.length, bytes, whole, system },
  };
}
