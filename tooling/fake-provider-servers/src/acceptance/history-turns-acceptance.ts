import {
  FunctionTool,
  LlmAgent,
  LoopAgent,
  Runner,
  SlidingWindowCompressor,
  userContent,
  type BaseAgent,
  type Content,
  type Event,
  type Model,
} from '@adk/core';
import { describe, expect, it } from 'vitest';

import { turnProblems, type WireTurn } from '../conformance/describe-turns';
import type { FakeProviderServer, FakeReply, FakeServerOptions, RecordedRequest } from '../types';

type Json = Record<string, unknown>;

/** The system prompt of a recorded Gemini, Anthropic or Chat Completions request, as text. */
function systemText(request: RecordedRequest): string {
  const body = request.body as Json;
  const texts = (blocks: unknown): string =>
    (Array.isArray(blocks) ? (blocks as Json[]) : []).map((b) => String(b.text ?? '')).join('');
  if (body.systemInstruction) return texts((body.systemInstruction as Json).parts);
  if (typeof body.system === 'string') return body.system;
  if (Array.isArray(body.system)) return texts(body.system);
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const system = messages.find((m) => m.role === 'system' || m.role === 'developer');
  return typeof system?.content === 'string' ? system.content : '';
}

/** What {@link historyTurnsAcceptance} needs to know about one provider. */
export interface HistoryTurnsAcceptanceOptions {
  /** Provider name in the test titles, e.g. `Gemini`. */
  provider: string;
  /** Starts this provider's fake server, e.g. `startFakeGemini`. */
  startServer(options: FakeServerOptions): Promise<FakeProviderServer>;
  /** Decodes the turns of a request that server recorded, e.g. `describeGeminiTurns`. */
  describeTurns(request: RecordedRequest): WireTurn[];
  /** The provider's model, pointed at the fake server's `baseURL`. */
  createModel(baseURL: string): Model;
}

async function drive(runner: Runner, sessionId: string, message: Content): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId, newMessage: message })) {
    events.push(event);
  }
  expect(events.filter((event) => event.errorCode)).toEqual([]);
  return events;
}

/**
 * Registers (with vitest) the acceptance test of a provider package for the histories the flow
 * builds in awkward places, run through a `Runner` against the provider's fake server: a
 * long-running tool answered in a later turn, compaction of older turns, and an agent running
 * again in a loop. Every request sent must start with a user turn, end with a user turn (never
 * a trailing model turn, which Anthropic reads as a prefill) and answer each call right after it.
 */
export function historyTurnsAcceptance(options: HistoryTurnsAcceptanceOptions): void {
  describe(`histories every provider accepts, against the fake ${options.provider} server`, () => {
    async function withServer(
      script: FakeReply[],
      agent: (model: Model) => BaseAgent,
      scenario: (runner: Runner) => Promise<void>,
    ): Promise<WireTurn[][]> {
      const server = await options.startServer({ script });
      try {
        const runner = new Runner({
          appName: 'turns',
          agent: agent(options.createModel(server.baseURL)),
          autoCreateSession: true,
        });
        await scenario(runner);
        expect(server.pending).toBe(0);
        return server.requests.map((request) => options.describeTurns(request));
      } finally {
        await server.close();
      }
    }

    it('resumes a long-running tool answered in a later turn', async () => {
      const startJob = new FunctionTool({
        name: 'start_job',
        description: 'Starts a slow job; its result comes later.',
        isLongRunning: true,
        execute: () => ({ status: 'pending' }),
      });
      const requests = await withServer(
        [
          { toolCalls: [{ id: 'job-1', name: 'start_job', args: {} }] },
          { text: 'The job is running; I will tell you when it is done.' },
          { text: 'The job finished.' },
        ],
        (model) => new LlmAgent({ name: 'worker', model, tools: [startJob] }),
        async (runner) => {
          await drive(runner, 'long', userContent('Start the job.'));
          await drive(runner, 'long', {
            role: 'user',
            parts: [
              {
                functionResponse: { id: 'job-1', name: 'start_job', response: { status: 'done' } },
              },
            ],
          });
        },
      );
      expect(requests).toHaveLength(3);
      for (const turns of requests) expect(turnProblems(turns)).toEqual([]);
      // The final result went to the model paired with its call.
      const last = requests[2]!;
      const call = last.findIndex((turn) => turn.items.some((item) => item.startsWith('call:')));
      expect(last[call + 1]?.items.some((item) => item.startsWith('result:'))).toBe(true);
    });

    it('compacts older turns and still starts with a user turn', async () => {
      const requests = await withServer(
        [{ text: 'a1' }, { text: 'a2' }, { text: 'a3' }, { text: 'a4' }],
        (model) =>
          new LlmAgent({
            name: 'chat',
            model,
            contextCompressor: new SlidingWindowCompressor({ maxEvents: 4, keepEvents: 2 }),
          }),
        async (runner) => {
          for (const text of ['q1', 'q2', 'q3', 'q4']) {
            await drive(runner, 'compact', userContent(text));
          }
        },
      );
      expect(requests).toHaveLength(4);
      for (const turns of requests) expect(turnProblems(turns)).toEqual([]);
      // The window kept whole invocations: fewer turns than the full history of the last call.
      expect(requests[3]!.length).toBeLessThan(7);
    });

    it('sends the static instruction as a byte-identical prefix while the state changes', async () => {
      const server = await options.startServer({ script: [{ text: 'one' }, { text: 'two' }] });
      try {
        const model = options.createModel(server.baseURL);
        const agent = new LlmAgent({
          name: 'concierge',
          description: 'Front desk.',
          model,
          globalInstruction: 'Be brief.',
          instruction: 'The guest is {mood}.',
          subAgents: [new LlmAgent({ name: 'billing', description: 'Invoices.', model })],
        });
        const runner = new Runner({ appName: 'turns', agent, autoCreateSession: true });
        for (const mood of ['calm', 'grumpy']) {
          for await (const event of runner.run({
            userId: 'u',
            sessionId: 'prefix',
            newMessage: userContent('Hello'),
            stateDelta: { mood },
          })) {
            expect(event.errorCode).toBeUndefined();
          }
        }
        const [first, second] = server.requests.map(systemText);
        const prefix = 'Be brief.\n\nYou are concierge. Front desk.';
        expect(first!.startsWith(prefix)).toBe(true);
        // The transfer block is part of the stable prefix; the templated text comes last.
        expect(first!.endsWith('The guest is calm.')).toBe(true);
        expect(second!.endsWith('The guest is grumpy.')).toBe(true);
        const stable = first!.slice(0, first!.length - 'The guest is calm.'.length);
        expect(stable).toContain('- billing: Invoices.');
        expect(second!.startsWith(stable)).toBe(true);
      } finally {
        await server.close();
      }
    });

    it('runs an agent again in a loop without sending its own answer as the last turn', async () => {
      const requests = await withServer(
        [{ text: 'draft 1' }, { text: 'draft 2' }],
        (model) =>
          new LoopAgent({
            name: 'refine',
            maxIterations: 2,
            subAgents: [new LlmAgent({ name: 'writer', model })],
          }),
        async (runner) => {
          await drive(runner, 'loop', userContent('Write and refine.'));
        },
      );
      expect(requests).toHaveLength(2);
      for (const turns of requests) expect(turnProblems(turns)).toEqual([]);
    });
  });
}
