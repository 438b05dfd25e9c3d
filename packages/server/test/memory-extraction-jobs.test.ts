import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { InMemorySessionService, LlmAgent, Runner, userContent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { SqlJobStore } from '@adk/jobs';
import {
  BackgroundMemoryExtraction,
  InMemoryVectorStore,
  MemoryExtractor,
  MemoryIngestionPlugin,
  SemanticMemoryService,
} from '@adk/memory';
import { ConceptEmbeddingModel } from '@adk/memory/testing';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * `@adk/memory`'s `BackgroundMemoryExtraction` on the embedded SQLite job store of `@adk/jobs`
 * (here because this package has both as dev dependencies).
 */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const CAT = JSON.stringify({ operations: [{ op: 'add', text: 'Has a cat named Miso' }] });

function setUp(options: { jobs: boolean; answer?: string; maxAttempts?: number }) {
  const dir = mkdtempSync(join(tmpdir(), 'adk-extraction-jobs-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const jobStore = options.jobs
    ? new SqlJobStore({
        db: new Kysely({
          dialect: new SqliteDialect({ database: new Database(join(dir, 'jobs.db')) }),
        }),
        ownsDatabase: true,
      })
    : undefined;
  if (jobStore) cleanups.push(() => jobStore.close());
  const memory = new SemanticMemoryService({
    store: new InMemoryVectorStore(),
    embedder: new ConceptEmbeddingModel(),
  });
  const extractionModel = new FakeModel({ responses: () => options.answer ?? CAT });
  const sessionService = new InMemorySessionService();
  const extraction = new BackgroundMemoryExtraction({
    extractor: new MemoryExtractor({ model: extractionModel, memory }),
    sessionService,
    ...(jobStore ? { jobStore } : {}),
    ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
    retryDelayMs: 0,
  });
  const runner = new Runner({
    appName: 'pets',
    agent: new LlmAgent({ name: 'pets', model: new FakeModel({ responses: () => 'Noted.' }) }),
    sessionService,
    memoryService: memory,
    plugins: [new MemoryIngestionPlugin({ extraction })],
    autoCreateSession: true,
  });
  const turn = async () => {
    for await (const _ of runner.run({
      userId: 'u1',
      sessionId: 's1',
      newMessage: userContent('My cat Miso sleeps all day'),
    }));
  };
  const facts = async () =>
    (await memory.listMemories({ appName: 'pets', userId: 'u1', kind: 'fact' })).map((fact) => [
      fact.text,
      fact.sessionId,
    ]);
  return { jobStore, extraction, extractionModel, turn, facts };
}

describe('memory extraction as a job', () => {
  it('with a job store, the turn only enqueues; the job extracts the session later', async () => {
    const { jobStore, extraction, extractionModel, turn, facts } = setUp({ jobs: true });
    await turn();
    // The turn ended without asking the extraction model anything.
    expect(extractionModel.requests).toHaveLength(0);
    expect(await facts()).toEqual([]);
    const [queued] = await jobStore!.list({ queue: 'memory-extraction' });
    expect(queued).toMatchObject({
      appName: 'pets',
      userId: 'u1',
      sessionId: 's1',
      state: 'pending',
    });

    await expect(extraction.runDue()).resolves.toBe(1);
    expect(extractionModel.requests).toHaveLength(1);
    expect(await facts()).toEqual([['Has a cat named Miso', 's1']]);
    expect((await jobStore!.get(queued!.id))?.state).toBe('completed');
    await expect(extraction.runDue()).resolves.toBe(0);
  });

  it('start() polls for due extraction jobs and stop() ends the polling', async () => {
    const { jobStore, extraction, turn, facts } = setUp({ jobs: true });
    extraction.start(20);
    cleanups.push(() => extraction.stop());
    await turn();
    await expect.poll(facts, { timeout: 10_000 }).toEqual([['Has a cat named Miso', 's1']]);
    const [job] = await jobStore!.list({ queue: 'memory-extraction' });
    await expect.poll(async () => (await jobStore!.get(job!.id))?.state).toBe('completed');
    await extraction.stop();
  });

  it('without a job store, the turn extracts inline as before', async () => {
    const { extraction, extractionModel, turn, facts } = setUp({ jobs: false });
    await turn();
    expect(extractionModel.requests).toHaveLength(1);
    expect(await facts()).toEqual([['Has a cat named Miso', 's1']]);
    await expect(extraction.runDue()).resolves.toBe(0);
  });

  it('a failed extraction is retried with its typed error, then dead; memory unchanged', async () => {
    const { jobStore, extraction, turn, facts } = setUp({
      jobs: true,
      answer: 'not JSON',
      maxAttempts: 2,
    });
    await turn();
    const [queued] = await jobStore!.list({ queue: 'memory-extraction' });
    await extraction.runDue();
    expect(await jobStore!.get(queued!.id)).toMatchObject({
      state: 'pending',
      lastError: { name: 'MemoryExtractionError', code: 'MEMORY_EXTRACTION_FAILED' },
    });
    await extraction.runDue();
    expect((await jobStore!.get(queued!.id))?.state).toBe('dead');
    expect(await facts()).toEqual([]);
  });

  it('a session deleted before its job runs fails the job as not found', async () => {
    const { jobStore, extraction } = setUp({ jobs: true });
    const { jobId } = (await extraction.schedule({
      id: 'gone',
      appName: 'pets',
      userId: 'u1',
      state: {},
      events: [],
      lastUpdateTime: Date.now(),
    })) as { jobId: string };
    await extraction.runDue();
    expect((await jobStore!.get(jobId))?.lastError).toMatchObject({ code: 'SESSION_NOT_FOUND' });
  });
});
