import {
  InMemorySessionService,
  LlmAgent,
  Runner,
  userContent,
  type Event,
  type MemoryService,
} from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { sqliteDatabase } from '@adk/test-databases';
import { afterAll, describe, expect, it } from 'vitest';

import {
  InMemoryMemoryService,
  loadMemoryTool,
  MemoryIngestionPlugin,
  preloadMemoryTool,
  SemanticMemoryService,
  SqlVectorStore,
} from '../src';
import { ConceptEmbeddingModel } from '../src/testing';

const sqlite = await sqliteDatabase();
afterAll(() => sqlite.close());

async function collect(run: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of run) events.push(event);
  return events;
}

/** One app where the ingestion plugin remembers each run, then a later session asks load_memory. */
async function askAboutPaymentsLater(memoryService: MemoryService): Promise<string[]> {
  const model = new FakeModel([
    'Good luck with it!',
    { functionCalls: [{ name: 'load_memory', args: { query: 'my payments project' } }] },
    'You are building a billing service.',
  ]);
  const runner = new Runner({
    appName: 'semantic-run',
    agent: new LlmAgent({ name: 'assistant', model, tools: [loadMemoryTool] }),
    sessionService: new InMemorySessionService(),
    memoryService,
    plugins: [new MemoryIngestionPlugin()],
    autoCreateSession: true,
  });
  await collect(
    runner.run({
      userId: 'u',
      sessionId: 'one',
      newMessage: userContent('I am building a billing service'),
    }),
  );
  await collect(
    runner.run({
      userId: 'u',
      sessionId: 'two',
      newMessage: userContent('How is my payments project going?'),
    }),
  );
  const response = model.requests[2]!.contents.at(-1)!.parts[0]!.functionResponse!;
  return (response.response as { memories: { text: string }[] }).memories.map((m) => m.text);
}

describe('semantic memory in a real run, with the unchanged tools and plugin', () => {
  it('load_memory finds a memory that shares no word with the question', async () => {
    const semantic = new SemanticMemoryService({
      store: new SqlVectorStore({ db: sqlite.db }),
      embedder: new ConceptEmbeddingModel(),
    });
    expect(await askAboutPaymentsLater(semantic)).toContain('I am building a billing service');
    // Word search cannot: this is what the semantic service adds.
    expect(await askAboutPaymentsLater(new InMemoryMemoryService())).not.toContain(
      'I am building a billing service',
    );
  });

  it('preload_memory puts the related memory in the system instruction', async () => {
    const memoryService = new SemanticMemoryService({
      store: new SqlVectorStore({ db: sqlite.db }),
      embedder: new ConceptEmbeddingModel(),
    });
    const model = new FakeModel(['Noted.', 'Sure.']);
    const runner = new Runner({
      appName: 'semantic-preload',
      agent: new LlmAgent({ name: 'assistant', model, tools: [preloadMemoryTool] }),
      memoryService,
      plugins: [new MemoryIngestionPlugin()],
      autoCreateSession: true,
    });
    await collect(
      runner.run({
        userId: 'u',
        sessionId: 'one',
        newMessage: userContent('My puppy is called Biscuit'),
      }),
    );
    await collect(
      runner.run({
        userId: 'u',
        sessionId: 'two',
        newMessage: userContent('What toys suit my dog?'),
      }),
    );
    expect(model.requests[1]!.systemInstruction).toContain('My puppy is called Biscuit');
  });
});
