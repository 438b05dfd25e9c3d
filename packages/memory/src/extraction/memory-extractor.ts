import { getText, type Model, type Session } from '@adk/core';

import { sessionToRecords } from '../internal/memory-text';
import type { SemanticMemoryService } from '../semantic/semantic-memory-service';
import { EXTRACTION_INSTRUCTION, extractionInput } from './extraction-prompt';
import { parseMemoryOperations, type MemoryOperation } from './memory-operations';

/** What one extraction changed (or skipped, with the reason), in the order applied. */
export type MemoryChange =
  | { op: 'add'; id: string; text: string }
  | { op: 'update'; id: string; text: string; previous: string }
  | { op: 'merge'; id: string; text: string; replaced: { id: string; text: string }[] }
  | { op: 'forget'; id: string; previous: string }
  | { op: 'skipped'; operation: MemoryOperation; reason: string };

/** Options of {@link MemoryExtractor}. */
export interface MemoryExtractorOptions {
  /** The model that reads the conversation and answers with operations (any `Model`). */
  model: Model;
  /** Where the facts live (their embeddings come from its embedder). */
  memory: SemanticMemoryService;
  /** Stored facts shown to the model, the most recent first. Default 100. */
  maxFacts?: number;
  /** Characters of conversation shown to the model (its end). Default 20,000. */
  maxTranscriptChars?: number;
}

/**
 * Memories, not transcripts: asks a model to turn a finished session into short facts about the
 * user, consolidated with the facts already stored (add, update, merge, forget), and applies its
 * answer. Facts are memories of kind `fact`: searched like the rest, listed, edited and deleted
 * through `SemanticMemoryService`. Every change is returned as a {@link MemoryChange}; an
 * operation naming an id the user does not have is skipped, never applied to someone else's.
 *
 * @example
 * ```ts
 * const extractor = new MemoryExtractor({ model: gemini('gemini-2.5-flash'), memory });
 * const changes = await extractor.extract(session);
 * ```
 */
export class MemoryExtractor {
  readonly #options: MemoryExtractorOptions;

  constructor(options: MemoryExtractorOptions) {
    this.#options = options;
  }

  /**
   * Extract and consolidate the facts of `session`.
   *
   * @throws {MemoryExtractionError} when the model's answer is not the expected JSON (nothing changed).
   */
  async extract(session: Session, options: { signal?: AbortSignal } = {}): Promise<MemoryChange[]> {
    const { memory, model } = this.#options;
    const scope = { appName: session.appName, userId: session.userId };
    const transcript = sessionToRecords(session)
      .map((r) => `${r.entry.author ?? 'unknown'}: ${r.text}`)
      .join('\n');
    if (transcript === '') return [];
    const facts = await memory.listMemories({
      ...scope,
      kind: 'fact',
      limit: this.#options.maxFacts ?? 100,
    });
    const request = {
      model: model.name,
      systemInstruction: EXTRACTION_INSTRUCTION,
      contents: [
        {
          role: 'user' as const,
          parts: [
            {
              text: extractionInput(facts, transcript, this.#options.maxTranscriptChars ?? 20_000),
            },
          ],
        },
      ],
      config: { responseMimeType: 'application/json' },
    };
    let answer = '';
    for await (const response of model.generate(request, {
      stream: false,
      signal: options.signal,
    })) {
      if (!response.partial) answer += getText(response.content);
    }
    const operations = parseMemoryOperations(answer);
    const known = new Map(facts.map((f) => [f.id, f]));
    const changes: MemoryChange[] = [];
    for (const operation of operations) {
      const ids =
        operation.op === 'add' ? [] : operation.op === 'merge' ? operation.ids : [operation.id];
      const unknown = ids.find((id) => !known.has(id));
      if (unknown !== undefined) {
        changes.push({
          op: 'skipped',
          operation,
          reason: `no stored fact ${unknown} of this user`,
        });
        continue;
      }
      changes.push(await this.#apply(scope, session.id, operation, known));
    }
    return changes;
  }

  async #apply(
    scope: { appName: string; userId: string },
    sessionId: string,
    operation: MemoryOperation,
    known: Map<string, { id: string; text: string }>,
  ): Promise<MemoryChange> {
    const { memory } = this.#options;
    switch (operation.op) {
      case 'add': {
        const [fact] = await memory.addFacts(scope, [{ text: operation.text, sessionId }]);
        return { op: 'add', id: fact!.id, text: operation.text };
      }
      case 'update': {
        const previous = known.get(operation.id)!.text;
        await memory.updateMemory(scope, operation.id, operation.text, sessionId);
        known.set(operation.id, { id: operation.id, text: operation.text });
        return { op: 'update', id: operation.id, text: operation.text, previous };
      }
      case 'merge': {
        const replaced = operation.ids.map((id) => ({ id, text: known.get(id)!.text }));
        const [fact] = await memory.addFacts(scope, [{ text: operation.text, sessionId }]);
        await memory.deleteMemoriesById(scope, operation.ids);
        for (const id of operation.ids) known.delete(id);
        return { op: 'merge', id: fact!.id, text: operation.text, replaced };
      }
      case 'forget': {
        const previous = known.get(operation.id)!.text;
        await memory.deleteMemoriesById(scope, [operation.id]);
        known.delete(operation.id);
        return { op: 'forget', id: operation.id, previous };
      }
    }
  }
}
