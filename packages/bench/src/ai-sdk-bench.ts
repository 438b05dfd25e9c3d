/**
 * The AI SDK adapter's cost per call: `@adk/models-ai-sdk` wrapping `@ai-sdk/openai-compatible`
 * against `@adk/models-openai`, both streaming the same scripted answer from one fake OpenAI
 * server on 127.0.0.1 (so both pay the same HTTP and SSE work). Alternating blocks of calls; the
 * figure is the ratio of the p50 times per call (goal: at most 1.2).
 */
import type { Model } from '@adk/core';
import { startFakeOpenAI, type FakeReply } from '@adk/fake-provider-servers';
import { aiSdkModel } from '@adk/models-ai-sdk';
import { createOpenAI } from '@adk/models-openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';

import type { BenchRow } from './report/row';
import { elapsedMs, quantile } from './stats';

const BLOCK = 20;

async function timeCall(model: Model): Promise<number> {
  const start = process.hrtime.bigint();
  for await (const _ of model.generate(
    { model: 'gpt-4o', contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], config: {} },
    { stream: true },
  )) {
    // drain
  }
  return elapsedMs(start);
}

/** One row: adapter ÷ our provider, p50 per streamed call. */
export async function runAiSdkBench(options: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const blocks = options.quick ? 5 : 20;
  const calls = blocks * BLOCK * 2 + 2 * BLOCK;
  const reply: FakeReply = {
    type: 'text',
    text: 'Hello there, friend.',
    chunks: ['Hello ', 'there, ', 'friend.'],
  } as FakeReply;
  const server = await startFakeOpenAI({ script: Array.from({ length: calls }, () => reply) });
  try {
    const ours = createOpenAI({ apiKey: 'k', baseURL: server.baseURL, maxRetries: 0 })(
      'openai/gpt-4o',
    );
    const adapter = aiSdkModel(
      createOpenAICompatible({
        name: 'bench',
        baseURL: server.baseURL,
        apiKey: 'k',
        includeUsage: true,
      })('gpt-4o'),
      { maxRetries: 0 },
    );
    for (let i = 0; i < BLOCK; i++) {
      await timeCall(ours);
      await timeCall(adapter);
    }
    const oursTimes: number[] = [];
    const adapterTimes: number[] = [];
    for (let block = 0; block < blocks; block++) {
      for (let i = 0; i < BLOCK; i++) oursTimes.push(await timeCall(ours));
      for (let i = 0; i < BLOCK; i++) adapterTimes.push(await timeCall(adapter));
    }
    const ratio = quantile(adapterTimes, 0.5) / quantile(oursTimes, 0.5);
    console.error(
      `[bench] ai-sdk adapter p50 ${quantile(adapterTimes, 0.5).toFixed(3)} ms, @adk/models-openai p50 ${quantile(oursTimes, 0.5).toFixed(3)} ms`,
    );
    return [
      {
        label: 'AI SDK adapter ÷ @adk/models-openai, streamed call on one fake server, p50',
        unit: 'x',
        ours: ratio,
        theirs: undefined,
        better: 'lower',
        goal: { subject: 'ours', op: '<=', target: 1.2 },
      },
    ];
  } finally {
    await server.close();
  }
}
