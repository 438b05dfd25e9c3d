/**
 * The AI SDK adapter's cost per streamed call. One fake OpenAI server on 127.0.0.1 streams the
 * same scripted answer (same bytes, same chunks) to every client, all through undici's global
 * keep-alive pool (the connections opened are counted and printed):
 *
 * - `@adk/models-openai` (undici `request`);
 * - `aiSdkModel` over `@ai-sdk/openai-compatible` with the global `fetch` (the default), and with
 *   `requestFetch()` (undici `request` under the AI SDK provider);
 * - the same `@ai-sdk/openai-compatible` model's `doStream` read directly, without the adapter;
 * - the adapter over the AI SDK's `MockLanguageModelV3` against that mock's `doStream` read
 *   directly (no I/O: the adapter's own CPU cost);
 * - for the breakdown printed on stderr: a bare `fetch` and a bare undici `request` of the same
 *   call (body read whole), and the AI SDK provider answering from memory (its own request and
 *   parsing work without any HTTP).
 *
 * Cases alternate in blocks; figures are p50 per call over all blocks. The 1.2x goal is on the
 * adapter's own overhead (adapter ÷ the provider read directly, same server): the ratio to
 * `@adk/models-openai` is mostly the AI SDK provider's own HTTP client and parsing, which the
 * adapter does not run (docs/PERFORMANCE.md).
 */
import diagnostics from 'node:diagnostics_channel';

import type { LlmRequest, Model } from '@adk/core';
import { startFakeOpenAI, type FakeReply } from '@adk/fake-provider-servers';
import { aiSdkModel, requestFetch, type AiSdkLanguageModel } from '@adk/models-ai-sdk';
import { createOpenAI } from '@adk/models-openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { MockLanguageModelV3 } from 'ai/test';
import { request } from 'undici';

import type { BenchRow } from './report/row';
import { elapsedMs, quantile } from './stats';

const BLOCK = 20;
/** Calls per block of the mock cases (microseconds each, so more of them). */
const MOCK_BLOCK = 200;

const REQUEST: LlmRequest = {
  model: 'gpt-4o',
  contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
  config: {},
};
const CALL_OPTIONS = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] };

async function drain(model: Model): Promise<void> {
  for await (const _ of model.generate(REQUEST, { stream: true })) {
    // drain
  }
}

/** Reads a specification model's stream to its end, as a caller without the adapter would. */
async function readDirectly(model: AiSdkLanguageModel): Promise<void> {
  const { stream } = (await model.doStream(CALL_OPTIONS as never)) as {
    stream: ReadableStream<unknown>;
  };
  const reader = stream.getReader();
  while (!(await reader.read()).done) {
    // drain
  }
}

interface Case {
  name: string;
  run: () => Promise<unknown>;
  perBlock: number;
  times: number[];
}

/** Rows: the three clients' p50s, the two ratios to ours, and the adapter's own overhead. */
export async function runAiSdkBench(options: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const blocks = options.quick ? 5 : 20;
  const reply: FakeReply = {
    type: 'text',
    text: 'Hello there, friend.',
    chunks: ['Hello ', 'there, ', 'friend.'],
  } as FakeReply;
  const server = await startFakeOpenAI({ script: () => reply });
  let connections = 0;
  const onConnect = (): void => void connections++;
  diagnostics.subscribe('undici:client:connected', onConnect);
  try {
    const url = `${server.baseURL}/chat/completions`;
    const compatible = (fetch?: typeof globalThis.fetch) =>
      createOpenAICompatible({
        name: 'bench',
        baseURL: server.baseURL,
        apiKey: 'k',
        includeUsage: true,
        ...(fetch ? { fetch } : {}),
      })('gpt-4o');
    const viaFetch = compatible();
    const viaRequest = compatible(requestFetch());

    // The exact answer the server streams, for the in-memory provider and the mock.
    const body = JSON.stringify({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const headers = { 'content-type': 'application/json', authorization: 'Bearer k' };
    const captured = await request(url, { method: 'POST', headers, body });
    const sse = new Uint8Array(await captured.body.arrayBuffer());
    const inMemory = compatible(
      async () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(sse);
              controller.close();
            },
          }),
          { status: 200, headers: { 'content-type': 'text/event-stream' } },
        ),
    );
    const parts: unknown[] = [];
    {
      const { stream } = await inMemory.doStream(CALL_OPTIONS as never);
      const reader = stream.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read())
        parts.push(next.value);
    }
    const mock = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part as never);
            controller.close();
          },
        }),
      }),
    });

    const ours = createOpenAI({ apiKey: 'k', baseURL: server.baseURL, maxRetries: 0 })(
      'openai/gpt-4o',
    );
    const adapter = aiSdkModel(viaFetch, { maxRetries: 0 });
    const adapterRequest = aiSdkModel(viaRequest, { maxRetries: 0 });
    const adapterMock = aiSdkModel(mock as unknown as AiSdkLanguageModel, { maxRetries: 0 });
    const cases: Case[] = [
      { name: 'ours', run: () => drain(ours) },
      { name: 'adapter', run: () => drain(adapter) },
      { name: 'adapterRequest', run: () => drain(adapterRequest) },
      { name: 'direct', run: () => readDirectly(viaFetch) },
      { name: 'directRequest', run: () => readDirectly(viaRequest) },
      {
        name: 'fetch',
        run: async () => (await fetch(url, { method: 'POST', headers, body })).text(),
      },
      {
        name: 'request',
        run: async () => (await request(url, { method: 'POST', headers, body })).body.text(),
      },
      { name: 'inMemory', run: () => readDirectly(inMemory) },
      { name: 'adapterMock', run: () => drain(adapterMock), perBlock: MOCK_BLOCK },
      { name: 'directMock', run: () => readDirectly(mock), perBlock: MOCK_BLOCK },
    ].map((c) => ({ perBlock: BLOCK, ...c, times: [] }));

    for (const c of cases) for (let i = 0; i < c.perBlock; i++) await c.run(); // warm-up
    for (let block = 0; block < blocks; block++) {
      for (const c of cases) {
        for (let i = 0; i < c.perBlock; i++) {
          const start = process.hrtime.bigint();
          await c.run();
          c.times.push(elapsedMs(start));
        }
      }
    }
    const p50 = Object.fromEntries(cases.map((c) => [c.name, quantile(c.times, 0.5)]));
    const at = (name: string): number => p50[name] ?? Number.NaN;
    const ms = (name: string): string => `${at(name).toFixed(3)} ms`;
    const spread = (name: string): string => {
      const times = cases.find((c) => c.name === name)?.times ?? [];
      return `p10-p90 ${quantile(times, 0.1).toFixed(3)}-${quantile(times, 0.9).toFixed(3)}`;
    };
    for (const c of cases)
      console.error(`[bench] ai-sdk ${c.name}: p50 ${ms(c.name)}, ${spread(c.name)}`);
    console.error(
      `[bench] ai-sdk breakdown (p50 per call): HTTP client fetch ${ms('fetch')} vs undici request ${ms('request')}; ` +
        `the AI SDK provider's own work from memory ${ms('inMemory')}; ` +
        `the adapter's own work over the mock ${((at('adapterMock') - at('directMock')) * 1000).toFixed(1)} µs; ` +
        `keep-alive connections opened: ${connections}`,
    );

    const label = (text: string): string =>
      `AI SDK, streamed call on the fake OpenAI server: ${text}, p50`;
    return [
      {
        label: label('@adk/models-openai'),
        unit: 'ms',
        ours: at('ours'),
        theirs: undefined,
        better: 'lower',
      },
      {
        label: label('aiSdkModel(openai-compatible), global fetch'),
        unit: 'ms',
        ours: at('adapter'),
        theirs: undefined,
        better: 'lower',
      },
      {
        label: label('aiSdkModel(openai-compatible), requestFetch()'),
        unit: 'ms',
        ours: at('adapterRequest'),
        theirs: undefined,
        better: 'lower',
      },
      {
        label: label('aiSdkModel(openai-compatible), global fetch ÷ @adk/models-openai'),
        unit: 'x',
        ours: at('adapter') / at('ours'),
        theirs: undefined,
        better: 'lower',
      },
      {
        label: label('aiSdkModel(openai-compatible), requestFetch() ÷ @adk/models-openai'),
        unit: 'x',
        ours: at('adapterRequest') / at('ours'),
        theirs: undefined,
        better: 'lower',
      },
      {
        label: label(
          "the adapter's own overhead: aiSdkModel ÷ the same model's doStream read directly",
        ),
        unit: 'x',
        ours: at('adapter') / at('direct'),
        theirs: undefined,
        better: 'lower',
        goal: { subject: 'ours', op: '<=', target: 1.2 },
      },
      {
        label:
          "AI SDK: the adapter's own CPU: aiSdkModel ÷ doStream read directly, over MockLanguageModelV3 (no I/O), p50",
        unit: 'x',
        ours: at('adapterMock') / at('directMock'),
        theirs: undefined,
        better: 'lower',
      },
    ];
  } finally {
    diagnostics.unsubscribe('undici:client:connected', onConnect);
    await server.close();
  }
}
