import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { FakeModel } from '@adk/core/testing';
import { ConceptEmbeddingModel } from '@adk/memory/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { serve, UsageError, type ServeHandle } from '../src';
import { resolveEmbeddingModel } from '../src/services/embedding-model';

const agentsDir = fileURLToPath(new URL('./fixtures/agents/', import.meta.url));
const cliDir = fileURLToPath(new URL('..', import.meta.url));

let dir: string;
let server: ServeHandle | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adk-cli-memory-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const MISO = JSON.stringify({ operations: [{ op: 'add', text: 'Has a cat named Miso' }] });

async function turn(url: string, text: string): Promise<void> {
  const response = await fetch(`${url}/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      app_name: 'greeter',
      user_id: 'u1',
      session_id: 's1',
      new_message: { role: 'user', parts: [{ text }] },
    }),
  });
  expect(response.status).toBe(200);
}

const memories = async (url: string) =>
  (
    (await (await fetch(`${url}/apps/greeter/users/u1/memories`)).json()) as {
      memories: { text: string; kind: string; session_id: string | null }[];
    }
  ).memories;

describe('semantic memory and background extraction in adk web / api_server', () => {
  it('extracts facts after a turn in the background, and the Memory stream announces them', async () => {
    const extractionModel = new FakeModel({ responses: () => MISO });
    server = await serve({
      agentsDir,
      port: 0,
      sessionServiceUri: `sqlite:${join(dir, 'sessions.db')}`,
      memoryServiceUri: `sqlite:${join(dir, 'memory.db')}`,
      memoryEmbeddingModel: new ConceptEmbeddingModel(),
      memoryExtractionModel: extractionModel,
      memoryExtractionPollMs: 50,
      memoryWatchIntervalMs: 50,
    });
    expect(server.memory).toContain('by meaning with concept-256 (sqlite exact)');
    expect(server.memory).toContain('facts extracted in the background');
    await fetch(`${server.url}/apps/greeter/users/u1/sessions/s1`, { method: 'POST' });
    const controller = new AbortController();
    const stream = await fetch(`${server.url}/apps/greeter/users/u1/memories/stream`, {
      signal: controller.signal,
    });
    const frames: { reset: boolean; memories: { text: string }[] }[] = [];
    const reading = (async () => {
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (frame.startsWith('data: ')) frames.push(JSON.parse(frame.slice(6)) as never);
        }
      }
    })().catch(() => undefined);

    await turn(server.url, 'My cat Miso sleeps all day');
    // The turn added the session (search by meaning finds it), and the job asked for facts.
    await expect
      .poll(async () => (await memories(server!.url)).filter((m) => m.kind === 'fact'))
      .toEqual([expect.objectContaining({ text: 'Has a cat named Miso', session_id: 's1' })]);
    expect(extractionModel.requests).toHaveLength(1);
    await expect
      .poll(() => frames.flatMap((f) => (f.reset ? [] : f.memories.map((m) => m.text))))
      .toContain('Has a cat named Miso');
    const jobs = (await (await fetch(`${server.url}/apps/greeter/users/u1/jobs`)).json()) as {
      queue: string;
      state: string;
    }[];
    expect(jobs).toEqual([
      expect.objectContaining({ queue: 'memory-extraction', state: 'completed' }),
    ]);
    const search = await fetch(`${server.url}/apps/greeter/users/u1/memories`);
    expect(search.status).toBe(200);
    controller.abort();
    await reading;
  });

  it('refuses extraction without an embedding model, and unknown embedding names', async () => {
    await expect(
      serve({ agentsDir, port: 0, memoryExtractionModel: new FakeModel({ responses: () => '' }) }),
    ).rejects.toThrow(UsageError);
    await expect(
      serve({ agentsDir, port: 0, memoryEmbeddingModel: 'word2vec-classic' }),
    ).rejects.toThrow(/Unknown --memory_embedding_model "word2vec-classic"/);
  });

  it('resolves an embedding model name through the provider package installed beside the agents', async () => {
    const model = await resolveEmbeddingModel('gemini-embedding-001@768', cliDir);
    expect(model.name).toBe('gemini-embedding-001');
    expect(model.dimensions).toBe(768);
    await expect(resolveEmbeddingModel('text-embedding-3-small', cliDir)).rejects.toThrow(
      /needs @adk\/models-openai/,
    );
    await expect(resolveEmbeddingModel('gemini-embedding-001@0', cliDir)).rejects.toThrow(
      UsageError,
    );
  });
});
