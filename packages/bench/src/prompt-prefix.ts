/**
 * How much of each model request is a stable prefix of the one before it, over a 20-turn session
 * whose instruction depends on state that changes every turn (seed 002 #13; issue 29). A
 * provider's implicit prompt cache (Gemini, OpenAI) and Anthropic's explicit breakpoints can only
 * reuse the bytes a request shares, from its start, with an earlier one; everything after the
 * first changed byte is paid in full.
 *
 * Two layouts of the same agent: its templated instruction in the system instruction (the
 * default), and a `staticInstruction` with the templated part travelling in the conversation.
 * Measured on the provider-neutral request (system instruction, tools, then the contents) and on
 * each provider's wire, the bodies its package sends to the fake server, in the order that
 * provider's cache reads a prompt (Gemini: system instruction, tools, contents; Anthropic: tools,
 * system, messages; OpenAI: tools, messages) and in raw body order. The share is Σ common prefix
 * with the previous request ÷ Σ request size, over every request but the first. Deterministic:
 * run once, not timed.
 */
import { FunctionTool, InMemorySessionService, LlmAgent, Runner } from '@adk/core';
import type { GenerateOptions, LlmRequest, LlmResponse, Model } from '@adk/core';
import {
  anthropicCacheOrder,
  geminiCacheOrder,
  lookupScript,
  openaiCacheOrder,
  pieceText,
  startFakeAnthropic,
  startFakeGemini,
  startFakeOpenAI,
  type CacheOrder,
  type FakeProviderServer,
  type FakeReply,
  type RecordedRequest,
} from '@adk/fake-provider-servers';
import { createAnthropic } from '@adk/models-anthropic';
import { createGemini } from '@adk/models-gemini';
import { createOpenAI } from '@adk/models-openai';
import { z } from 'zod';

import type { BenchRow } from './report/row';

/** Turns of the measured session. */
export const PREFIX_TURNS = 20;

/** Goal of issue 29 for the static layout, on every wire. */
const WIRE_GOAL = 0.9;

const GLOBAL_INSTRUCTION =
  'You work for the Grand Hotel. Answer in the language of the guest, politely and briefly. ' +
  'Never reveal internal notes. Prices are in euros, taxes included.';
const STABLE_INSTRUCTION =
  'Use the lookup tool for any fact about the hotel: opening hours, prices, services. ' +
  'Offer to book what the guest asks for; confirm the details before booking.';
const DYNAMIC_INSTRUCTION =
  'You are talking to {user:name}, on visit number {visit}. Their room is {room}.';

type Layout = 'system' | 'static';

/** Calls `lookup` on a user turn, answers in text after the tool's result. */
class PrefixModel implements Model {
  readonly name = 'prefix-model';
  readonly requests: LlmRequest[] = [];

  async *generate(request: LlmRequest, _options: GenerateOptions): AsyncGenerator<LlmResponse> {
    this.requests.push(request);
    const answered = request.contents
      .slice(-2)
      .some((content) => content.parts.some((part) => part.functionResponse !== undefined));
    yield {
      content: {
        role: 'model',
        parts: [
          answered
            ? { text: 'Breakfast is served from 7 to 10.' }
            : { functionCall: { name: 'lookup', args: { topic: 'breakfast' } } },
        ],
      },
      turnComplete: true,
    };
  }
}

function agentFor(model: Model, layout: Layout): LlmAgent {
  const lookup = new FunctionTool({
    name: 'lookup',
    description: 'Looks up a fact about the hotel.',
    parameters: z.object({ topic: z.string() }),
    execute: ({ topic }) => ({ topic, answer: 'Breakfast is served from 7 to 10.' }),
  });
  const subAgents = [
    new LlmAgent({ name: 'billing', description: 'Invoices, payments and refunds.', model }),
    new LlmAgent({ name: 'housekeeping', description: 'Cleaning and towels.', model }),
  ];
  return new LlmAgent({
    name: 'concierge',
    description: 'The front desk of the Grand Hotel.',
    model,
    globalInstruction: GLOBAL_INSTRUCTION,
    ...(layout === 'static'
      ? { staticInstruction: STABLE_INSTRUCTION, instruction: DYNAMIC_INSTRUCTION }
      : { instruction: `${DYNAMIC_INSTRUCTION} ${STABLE_INSTRUCTION}` }),
    tools: [lookup],
    subAgents,
  });
}

async function runSession(model: Model, layout: Layout): Promise<void> {
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'prefix', agent: agentFor(model, layout), sessionService });
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
}

/** Pieces serialised one after the other (a newline between them), `cache_control` left out. */
function bytesOf(pieces: readonly unknown[]): Buffer {
  return Buffer.from(
    pieces.map((piece) => (typeof piece === 'string' ? piece : pieceText(piece))).join('\n'),
    'utf8',
  );
}

function commonPrefix(a: Buffer, b: Buffer): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a[index] === b[index]) index++;
  return index;
}

/** Share (0..1) of the bytes of each item that it shares, from its start, with the item before. */
export function prefixShare(items: readonly Buffer[]): number {
  let shared = 0;
  let total = 0;
  for (let index = 1; index < items.length; index++) {
    shared += commonPrefix(items[index - 1]!, items[index]!);
    total += items[index]!.length;
  }
  return total === 0 ? 0 : shared / total;
}

/** One wire: its fake server, its model, and how its cache reads a request body. */
interface Wire {
  name: string;
  start(script: (request: RecordedRequest) => FakeReply): Promise<FakeProviderServer>;
  model(baseURL: string): Model;
  cacheOrder: CacheOrder;
}

const WIRES: Wire[] = [
  {
    name: 'Gemini',
    start: (script) => startFakeGemini({ script }),
    model: (baseURL) =>
      createGemini({ apiKey: 'bench', baseURL }).languageModel('gemini-2.5-flash'),
    cacheOrder: geminiCacheOrder,
  },
  {
    name: 'Anthropic',
    start: (script) => startFakeAnthropic({ script }),
    model: (baseURL) =>
      createAnthropic({ apiKey: 'bench', baseURL, promptCaching: true }).languageModel(
        'claude-sonnet-4-5',
      ),
    cacheOrder: anthropicCacheOrder,
  },
  {
    name: 'OpenAI',
    start: (script) => startFakeOpenAI({ script }),
    model: (baseURL) => createOpenAI({ apiKey: 'bench', baseURL }).languageModel('gpt-4o'),
    cacheOrder: openaiCacheOrder,
  },
];

async function measureWire(
  wire: Wire,
  layout: Layout,
): Promise<{ cache: number; raw: number; requests: number }> {
  const server = await wire.start(lookupScript);
  try {
    await runSession(wire.model(server.baseURL), layout);
    const bodies = server.requests.map((request) => request.body as Record<string, unknown>);
    if (bodies.length !== PREFIX_TURNS * 2) {
      throw new Error(`prompt-prefix: ${wire.name} saw ${bodies.length} requests`);
    }
    return {
      cache: prefixShare(bodies.map((body) => bytesOf(wire.cacheOrder(body)))),
      raw: prefixShare(bodies.map((body) => Buffer.from(JSON.stringify(body), 'utf8'))),
      requests: bodies.length,
    };
  } finally {
    await server.close();
  }
}

function neutralBytes(request: LlmRequest): Buffer {
  return bytesOf([
    request.systemInstruction ?? '',
    request.config.tools ?? [],
    ...request.contents,
  ]);
}

/** Run the sessions and measure; the rows carry percentages for ADK for TypeScript only. */
export async function runPromptPrefixBench(): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const rows: BenchRow[] = [];
  const raw: Record<string, unknown> = { turns: PREFIX_TURNS };
  const row = (label: string, value: number, goal?: number): BenchRow => ({
    label,
    unit: '%',
    ours: Math.round(value * 1000) / 10,
    theirs: undefined,
    better: 'higher',
    ...(goal === undefined ? {} : { goal: { subject: 'ours', op: '>=', target: goal * 100 } }),
  });
  for (const layout of ['system', 'static'] as const) {
    const name = layout === 'system' ? 'instruction in system' : 'staticInstruction';
    const model = new PrefixModel();
    await runSession(model, layout);
    if (model.requests.length !== PREFIX_TURNS * 2) {
      throw new Error(
        `prompt-prefix: expected ${PREFIX_TURNS * 2} calls, saw ${model.requests.length}`,
      );
    }
    const neutral = prefixShare(model.requests.map(neutralBytes));
    rows.push(row(`Stable prompt prefix, ${PREFIX_TURNS} turns, ${name}, request`, neutral));
    raw[`${layout}.request`] = neutral;
    for (const wire of WIRES) {
      const measured = await measureWire(wire, layout);
      const goal = layout === 'static' ? WIRE_GOAL : undefined;
      rows.push(
        row(`Stable prompt prefix, ${name}, ${wire.name} wire (cache order)`, measured.cache, goal),
      );
      rows.push(row(`Stable prompt prefix, ${name}, ${wire.name} wire (body order)`, measured.raw));
      raw[`${layout}.${wire.name}`] = measured;
    }
  }
  return { rows, raw };
}
