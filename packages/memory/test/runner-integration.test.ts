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
  SqlMemoryService,
} from '../src';

const sqlite = await sqliteDatabase();
afterAll(() => sqlite.close());

async function collect(run: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of run) events.push(event);
  return events;
}

/** Run a first conversation and put its session in memory, as an app does when a session ends. */
async function rememberFirstConversation(
  memoryService: MemoryService,
  sessionService: InMemorySessionService,
  appName: string,
) {
  const model = new FakeModel(['Noted: your dog Biscuit is a beagle.']);
  const runner = new Runner({
    appName,
    agent: new LlmAgent({ name: 'assistant', model }),
    sessionService,
    autoCreateSession: true,
  });
  await collect(
    runner.run({
      userId: 'u',
      sessionId: 'first',
      newMessage: userContent('My dog Biscuit is a beagle'),
    }),
  );
  const session = await sessionService.getSession({ appName, userId: 'u', sessionId: 'first' });
  await memoryService.addSessionToMemory(session!);
}

const services: [string, () => MemoryService][] = [
  ['in-memory', () => new InMemoryMemoryService()],
  ['sqlite', () => new SqlMemoryService({ db: sqlite.db })],
];

describe.each(services)('memory in a real run (%s)', (label, makeService) => {
  it('preload_memory puts memories matching the user message in the system instruction', async () => {
    const memoryService = makeService();
    const sessionService = new InMemorySessionService();
    const appName = `preload-${label}`;
    await rememberFirstConversation(memoryService, sessionService, appName);
    const model = new FakeModel(['Beagles love long walks.']);
    const agent = new LlmAgent({
      name: 'assistant',
      model,
      instruction: 'Be kind.',
      tools: [preloadMemoryTool],
    });
    const runner = new Runner({
      appName,
      agent,
      sessionService,
      memoryService,
      autoCreateSession: true,
    });
    await collect(
      runner.run({
        userId: 'u',
        sessionId: 'second',
        newMessage: userContent('What should I do with Biscuit today?'),
      }),
    );
    const request = model.requests[0]!;
    expect(request.systemInstruction).toContain('Be kind.');
    expect(request.systemInstruction).toContain('user: My dog Biscuit is a beagle');
    expect(request.systemInstruction).toContain('assistant: Noted: your dog Biscuit is a beagle.');
    expect(request.config.tools ?? []).toEqual([]);
  });

  it('load_memory lets the model search memory and gives it the results', async () => {
    const memoryService = makeService();
    const sessionService = new InMemorySessionService();
    const appName = `load-${label}`;
    await rememberFirstConversation(memoryService, sessionService, appName);
    const model = new FakeModel([
      { functionCalls: [{ name: 'load_memory', args: { query: 'dog breed' } }] },
      'Biscuit is a beagle.',
    ]);
    const agent = new LlmAgent({ name: 'assistant', model, tools: [loadMemoryTool] });
    const runner = new Runner({
      appName,
      agent,
      sessionService,
      memoryService,
      autoCreateSession: true,
    });
    await collect(
      runner.run({
        userId: 'u',
        sessionId: 'second',
        newMessage: userContent('What breed is my dog?'),
      }),
    );
    const response = model.requests[1]!.contents.at(-1)!.parts[0]!.functionResponse!;
    expect(response.name).toBe('load_memory');
    const texts = (response.response as { memories: { text: string }[] }).memories.map(
      (m) => m.text,
    );
    expect(texts).toContain('My dog Biscuit is a beagle');
  });

  it('never shows another user memories', async () => {
    const memoryService = makeService();
    const sessionService = new InMemorySessionService();
    const appName = `private-${label}`;
    await rememberFirstConversation(memoryService, sessionService, appName);
    const model = new FakeModel(['ok']);
    const agent = new LlmAgent({ name: 'assistant', model, tools: [preloadMemoryTool] });
    const runner = new Runner({
      appName,
      agent,
      sessionService,
      memoryService,
      autoCreateSession: true,
    });
    await collect(
      runner.run({
        userId: 'mallory',
        sessionId: 'x',
        newMessage: userContent('Tell me about Biscuit the dog'),
      }),
    );
    expect(model.requests[0]!.systemInstruction ?? '').not.toContain('Biscuit is a beagle');
  });
});

describe('memory tools without a memory service', () => {
  it('preload_memory fails the step with a clear error instead of silently skipping memory', async () => {
    const model = new FakeModel(['never called']);
    const agent = new LlmAgent({ name: 'assistant', model, tools: [preloadMemoryTool] });
    const runner = new Runner({ appName: 'no-memory', agent, autoCreateSession: true });
    const events = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('hello there') }),
    );
    const failure = events.find((e) => e.errorCode !== undefined);
    expect(failure?.errorMessage).toMatch(/memoryService/);
    expect(model.callCount).toBe(0);
  });
});

describe('MemoryIngestionPlugin', () => {
  it('remembers each session after every run, without duplicates, for later sessions', async () => {
    const memoryService = new InMemoryMemoryService();
    const model = new FakeModel(['Noted.', 'Noted again.', 'You like tangerines.']);
    const agent = new LlmAgent({ name: 'assistant', model, tools: [preloadMemoryTool] });
    const runner = new Runner({
      appName: 'ingest',
      agent,
      memoryService,
      plugins: [new MemoryIngestionPlugin()],
      autoCreateSession: true,
    });
    const ask = (sessionId: string, text: string) =>
      collect(runner.run({ userId: 'u', sessionId, newMessage: userContent(text) }));
    await ask('one', 'I like tangerines');
    await ask('one', 'Tangerines are my favourite fruit');
    const { memories } = await memoryService.searchMemory({
      appName: 'ingest',
      userId: 'u',
      query: 'tangerines',
      limit: 50,
    });
    expect(memories.map((m) => m.content.parts[0]?.text).sort()).toEqual([
      'I like tangerines',
      'Tangerines are my favourite fruit',
    ]);
    await ask('two', 'Which fruit do I like? Tangerines?');
    expect(model.requests[2]!.systemInstruction).toContain('user: I like tangerines');
  });

  it('fails clearly when there is no memory service to write to', async () => {
    const runner = new Runner({
      appName: 'ingest-none',
      agent: new LlmAgent({ name: 'assistant', model: new FakeModel(['ok']) }),
      plugins: [new MemoryIngestionPlugin()],
      autoCreateSession: true,
    });
    await expect(
      collect(runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('hi') })),
    ).rejects.toThrow(/memoryService/);
  });
});
