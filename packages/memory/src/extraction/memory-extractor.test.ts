import { FakeModel } from '@adk/core/testing';
import { describe, expect, it } from 'vitest';

import { MemoryExtractionError } from '../errors/memory-extraction-error';
import { InMemoryVectorStore } from '../semantic/in-memory-vector-store';
import { SemanticMemoryService } from '../semantic/semantic-memory-service';
import { ConceptEmbeddingModel } from '../testing';
import { sessionSaying } from '../testing/vitest/semantic-fixtures';
import { MemoryExtractor } from './memory-extractor';

const memory = () =>
  new SemanticMemoryService({
    store: new InMemoryVectorStore(),
    embedder: new ConceptEmbeddingModel(),
  });
const json = (operations: unknown[]) => JSON.stringify({ operations });
const alice = { appName: 'app', userId: 'alice' };

describe('MemoryExtractor', () => {
  it('turns a session into facts that are then found by meaning', async () => {
    const service = memory();
    const model = new FakeModel([
      '```json\n' +
        json([
          { op: 'add', text: 'Is building a billing service in Go' },
          { op: 'add', text: 'Has a sister called Ana' },
        ]) +
        '\n```',
    ]);
    const changes = await new MemoryExtractor({ model, memory: service }).extract(
      sessionSaying('app', 'alice', 's1', [
        'I am writing the billing service in Go',
        'Ana, my sister, helps',
      ]),
    );
    expect(changes.map((c) => c.op)).toEqual(['add', 'add']);
    const request = model.requests[0]!;
    expect(request.contents[0]!.parts[0]!.text).toContain(
      'user: I am writing the billing service in Go',
    );
    expect(request.contents[0]!.parts[0]!.text).toContain('Stored facts:\n(none)');
    const facts = await service.listMemories({ ...alice, kind: 'fact' });
    expect(facts.map((f) => [f.text, f.sessionId, f.author])).toEqual(
      expect.arrayContaining([
        ['Is building a billing service in Go', 's1', 'memory'],
        ['Has a sister called Ana', 's1', 'memory'],
      ]),
    );
    const { memories } = await service.searchMemory({
      ...alice,
      query: 'my payments project',
      mode: 'semantic',
    });
    expect(memories[0]?.content.parts[0]?.text).toBe('Is building a billing service in Go');
  });

  it('consolidates with stored facts: update, merge, forget; unknown ids skipped', async () => {
    const service = memory();
    const [go, rust, sister, likesTea] = await service.addFacts(alice, [
      { text: 'Writes the billing service in Go' },
      { text: 'Likes Rust for the billing service' },
      { text: 'Has a sister called Ana' },
      { text: 'Drinks tea every morning' },
    ]);
    const [bobFact] = await service.addFacts({ appName: 'app', userId: 'bob' }, [
      { text: 'Bob fact' },
    ]);
    const model = new FakeModel([
      json([
        { op: 'update', id: sister!.id, text: 'Has a sister called Ana, a doctor' },
        { op: 'merge', ids: [go!.id, rust!.id], text: 'Moved the billing service from Go to Rust' },
        { op: 'forget', id: likesTea!.id },
        { op: 'forget', id: bobFact!.id },
        { op: 'add', text: 'Switched to espresso' },
      ]),
    ]);
    const changes = await new MemoryExtractor({ model, memory: service }).extract(
      sessionSaying('app', 'alice', 's2', [
        'I moved billing to Rust, no more tea, espresso now; Ana is a doctor',
      ]),
    );
    // The model saw the stored facts with their ids.
    expect(model.requests[0]!.contents[0]!.parts[0]!.text).toContain(
      `[${go!.id}] Writes the billing service in Go`,
    );
    expect(changes).toEqual([
      {
        op: 'update',
        id: sister!.id,
        text: 'Has a sister called Ana, a doctor',
        previous: 'Has a sister called Ana',
      },
      {
        op: 'merge',
        id: expect.any(String),
        text: 'Moved the billing service from Go to Rust',
        replaced: [
          { id: go!.id, text: 'Writes the billing service in Go' },
          { id: rust!.id, text: 'Likes Rust for the billing service' },
        ],
      },
      { op: 'forget', id: likesTea!.id, previous: 'Drinks tea every morning' },
      {
        op: 'skipped',
        operation: { op: 'forget', id: bobFact!.id },
        reason: `no stored fact ${bobFact!.id} of this user`,
      },
      { op: 'add', id: expect.any(String), text: 'Switched to espresso' },
    ]);
    expect(
      (await service.listMemories({ ...alice, kind: 'fact' })).map((f) => f.text).sort(),
    ).toEqual([
      'Has a sister called Ana, a doctor',
      'Moved the billing service from Go to Rust',
      'Switched to espresso',
    ]);
    expect(
      (await service.listMemories({ appName: 'app', userId: 'bob' })).map((f) => f.text),
    ).toEqual(['Bob fact']);
    // The updated fact is found by its new meaning.
    const { memories } = await service.searchMemory({
      ...alice,
      query: 'hospital doctor',
      mode: 'semantic',
    });
    expect(memories[0]?.content.parts[0]?.text).toBe('Has a sister called Ana, a doctor');
  });

  it('refuses an answer that is not the expected JSON, changing nothing', async () => {
    for (const answer of [
      'I think the user likes tea.',
      '{"operations": [{"op": "paint"}]}',
      '{"ops": []}',
    ]) {
      const service = memory();
      const error = await new MemoryExtractor({ model: new FakeModel([answer]), memory: service })
        .extract(sessionSaying('app', 'alice', 's1', ['I like tea']))
        .catch((e: unknown) => e);
      expect(MemoryExtractionError.isInstance(error), answer).toBe(true);
      expect(await service.listMemories(alice)).toEqual([]);
    }
  });

  it('does not call the model for a session without text', async () => {
    const model = new FakeModel({ responses: [], strict: true });
    expect(
      await new MemoryExtractor({ model, memory: memory() }).extract(
        sessionSaying('app', 'alice', 's', []),
      ),
    ).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });
});
