import type { GenerateOptions, LlmRequest, LlmResponse, Model } from '@adk/core';

import { ReplayMissError } from '../errors';
import { canonicalRequest } from './canonical-request';
import { loadCassette, type CassetteEntry } from './cassette';
import { lineDiff } from './line-diff';

/**
 * Serves a cassette recorded by `RecordingModel`: a request gets the responses recorded for the
 * same canonical request (identical requests in recorded order; once they are used up, the last
 * one again), chunk by chunk as recorded. A request the cassette does not hold throws
 * {@link ReplayMissError} with a diff against the nearest recorded request.
 *
 * @example
 * ```ts
 * const model = await ReplayModel.fromFile('evals/weather.cassette.jsonl');
 * ```
 */
export class ReplayModel implements Model {
  readonly name: string;
  readonly #byKey = new Map<string, { entries: CassetteEntry[]; next: number }>();
  readonly #entries: readonly CassetteEntry[];
  readonly #cassette: string;

  constructor(
    entries: readonly CassetteEntry[],
    options: { cassette?: string; name?: string } = {},
  ) {
    this.#entries = entries;
    this.#cassette = options.cassette ?? '<cassette>';
    for (const entry of entries) {
      const key = JSON.stringify(entry.request);
      const slot = this.#byKey.get(key) ?? { entries: [], next: 0 };
      slot.entries.push(entry);
      this.#byKey.set(key, slot);
    }
    const first = entries[0]?.request as { model?: unknown } | undefined;
    this.name = options.name ?? (typeof first?.model === 'string' ? first.model : 'replay');
  }

  /** A view of this cassette under another model name (shares what has been served). */
  as(name: string): Model {
    return { name, generate: (request, options) => this.generate(request, options) };
  }

  /** A replay model over the cassette file at `path`. */
  static async fromFile(path: string, options: { name?: string } = {}): Promise<ReplayModel> {
    return new ReplayModel(await loadCassette(path), { ...options, cassette: path });
  }

  async *generate(request: LlmRequest, options: GenerateOptions): AsyncGenerator<LlmResponse> {
    const canonical = canonicalRequest(request);
    const slot = this.#byKey.get(JSON.stringify(canonical));
    if (!slot) throw this.#miss(canonical);
    const entry = slot.entries[Math.min(slot.next, slot.entries.length - 1)]!;
    slot.next += 1;
    for (const response of entry.responses) {
      options.signal?.throwIfAborted();
      if (!options.stream && response.partial) continue;
      yield structuredClone(response);
    }
  }

  #miss(canonical: unknown): ReplayMissError {
    const asked = JSON.stringify(canonical, null, 2);
    if (this.#entries.length === 0) {
      return new ReplayMissError({
        cassette: this.#cassette,
        diff: '',
        reason: 'the cassette is empty',
      });
    }
    let best: { text: string; changes: number } | undefined;
    for (const entry of this.#entries) {
      const diff = lineDiff(JSON.stringify(entry.request, null, 2), asked);
      if (!best || diff.changes < best.changes) best = diff;
    }
    return new ReplayMissError({
      cassette: this.#cassette,
      diff: best!.text,
      reason: `${best!.changes} line(s) differ from the nearest of ${this.#entries.length} recorded request(s)`,
    });
  }
}
