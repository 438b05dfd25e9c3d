import {
  App,
  FunctionTool,
  LlmAgent,
  Runner,
  userContent,
  type ContextCacheConfig,
  type Event,
} from '@adk/core';
import { startFakeGemini, type FakeGeminiServer, type FakeReply } from '@adk/fake-provider-servers';
import { afterEach, describe, expect, it } from 'vitest';

import { CONTEXT_CACHE_WARNING, createGemini } from '../src';

let server: FakeGeminiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const INSTRUCTION = `You answer from the support handbook. ${'Be precise and cite the section. '.repeat(30)}`;

async function drain(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** An agent on the fake Gemini API, in an app with context caching, and a way to talk to it. */
async function setUp(
  cache: Partial<ContextCacheConfig>,
  options: { usage?: FakeReply['usage']; cachedContentMinTokens?: number; stream?: boolean } = {},
) {
  server = await startFakeGemini({
    script: () => ({ text: 'Noted.', ...(options.usage ? { usage: options.usage } : {}) }),
    ...(options.cachedContentMinTokens === undefined
      ? {}
      : { cachedContentMinTokens: options.cachedContentMinTokens }),
  });
  const lookup = new FunctionTool({
    name: 'lookup',
    description: 'Look a section up in the handbook.',
    execute: () => ({ text: 'n/a' }),
  });
  const agent = new LlmAgent({
    name: 'support',
    model: createGemini({ apiKey: 'test-key', baseURL: server.baseURL })('gemini-2.5-flash'),
    instruction: INSTRUCTION,
    tools: [lookup],
  });
  const runner = new Runner({
    app: new App({ name: 'support', agent, contextCacheConfig: cache }),
    autoCreateSession: true,
  });
  const say = (text: string) =>
    drain(
      runner.run({
        userId: 'u',
        sessionId: 's',
        newMessage: userContent(text),
        ...(options.stream ? { runConfig: { streamingMode: 'sse' as const } } : {}),
      }),
    );
  const generated = () => server!.requests.filter((request) => request.path.includes(':'));
  const created = () =>
    server!.requests.filter(
      (request) => request.method === 'POST' && request.path.endsWith('/cachedContents'),
    );
  return { say, generated, created };
}

describe('Gemini explicit context caching (App contextCacheConfig)', () => {
  it('creates a cache for the stable start on the second turn and reuses it on the third', async () => {
    const { say, generated, created } = await setUp({});
    const first = await say('What is the refund policy?');
    expect(first.at(-1)?.cacheMetadata).toMatchObject({ contentsCount: 1 });
    expect(first.at(-1)?.cacheMetadata?.cacheName).toBeUndefined();
    expect(generated()[0]!.body).toMatchObject({ systemInstruction: {}, tools: [{}] });

    const second = await say('And for damaged items?');
    expect(created()).toHaveLength(1);
    expect(created()[0]!.body).toMatchObject({
      model: 'models/gemini-2.5-flash',
      ttl: '1800s',
      contents: [{ role: 'user', parts: [{ text: 'What is the refund policy?' }] }],
      systemInstruction: { parts: [{ text: expect.stringContaining('support handbook') }] },
      tools: [{ functionDeclarations: [{ name: 'lookup' }] }],
    });
    const [cache] = server!.cachedContents();
    const through = generated()[1]!.body as Record<string, unknown>;
    expect(through.cachedContent).toBe(cache!.name);
    expect(through).not.toHaveProperty('systemInstruction');
    expect(through).not.toHaveProperty('tools');
    expect(through.contents).toEqual([
      { role: 'model', parts: [{ text: 'Noted.' }] },
      { role: 'user', parts: [{ text: 'And for damaged items?' }] },
    ]);
    const hit = second.at(-1)!;
    expect(hit.usageMetadata?.cachedContentTokenCount).toBe(cache!.tokens);
    expect(hit.cacheMetadata).toMatchObject({ cacheName: cache!.name, invocationsUsed: 1 });

    const third = await say('Thanks.');
    expect(created()).toHaveLength(1);
    expect((generated()[2]!.body as { cachedContent?: string }).cachedContent).toBe(cache!.name);
    expect(third.at(-1)?.usageMetadata?.cachedContentTokenCount).toBe(cache!.tokens);
    expect(third.at(-1)?.cacheMetadata).toMatchObject({ invocationsUsed: 2 });
  });

  it('streams through the cache too, the metadata on the final event only', async () => {
    const { say, generated } = await setUp({}, { stream: true });
    await say('One.');
    const events = await say('Two.');
    expect((generated()[1]!.body as { cachedContent?: string }).cachedContent).toMatch(
      /^cachedContents\//,
    );
    expect(events.filter((event) => event.partial).every((event) => !event.cacheMetadata)).toBe(
      true,
    );
    expect(events.at(-1)?.usageMetadata?.cachedContentTokenCount).toBeGreaterThan(0);
  });

  it('refreshes the cache after cacheIntervals invocations, deleting the old one', async () => {
    const { say, created } = await setUp({ cacheIntervals: 1 });
    await say('One.');
    await say('Two.');
    const [old] = server!.cachedContents();
    await say('Three.');
    expect(created()).toHaveLength(2);
    expect(
      server!.requests.some(
        (request) =>
          request.method === 'DELETE' && old!.name.endsWith(request.path.split('/').pop()!),
      ),
    ).toBe(true);
    const live = server!.cachedContents();
    expect(live).toHaveLength(1);
    expect(live[0]!.name).not.toBe(old!.name);
  });

  it('creates a new cache once the old one expired (ttlSeconds)', async () => {
    const { say, created } = await setUp({ ttlSeconds: 1 });
    await say('One.');
    await say('Two.');
    const [old] = server!.cachedContents();
    await expect.poll(() => Date.now() > old!.expiresAt + 50, { interval: 100 }).toBe(true);
    const third = await say('Three.');
    expect(created()).toHaveLength(2);
    expect(third.at(-1)?.cacheMetadata?.cacheName).not.toBe(old!.name);
    expect(third.at(-1)?.usageMetadata?.cachedContentTokenCount).toBeGreaterThan(0);
  });

  it('creates no cache while the prompt is under minTokens', async () => {
    const small = await setUp(
      { minTokens: 1000 },
      { usage: { inputTokens: 900, outputTokens: 5 } },
    );
    await small.say('One.');
    await small.say('Two.');
    expect(small.created()).toHaveLength(0);
    expect(small.generated()[1]!.body).toHaveProperty('systemInstruction');
    await server!.close();
    const large = await setUp(
      { minTokens: 1000 },
      { usage: { inputTokens: 1200, outputTokens: 5 } },
    );
    await large.say('One.');
    await large.say('Two.');
    expect(large.created()).toHaveLength(1);
  });

  it('goes out uncached, with an AdkWarning, when the API refuses the cache', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const { say, generated } = await setUp({}, { cachedContentMinTokens: 1_000_000 });
      await say('One.');
      const second = await say('Two.');
      expect(second.at(-1)?.content?.parts[0]?.text).toBe('Noted.');
      expect(generated()[1]!.body).toHaveProperty('systemInstruction');
      expect(second.at(-1)?.cacheMetadata?.cacheName).toBeUndefined();
      await expect
        .poll(() => warnings.map((warning) => (warning as { code?: string }).code))
        .toContain(CONTEXT_CACHE_WARNING);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
