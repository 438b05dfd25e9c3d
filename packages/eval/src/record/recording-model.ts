import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

import type { GenerateOptions, LlmRequest, LlmResponse, Model, ModelCapabilities } from '@adk/core';

import { canonicalRequest } from './canonical-request';
import type { CassetteEntry } from './cassette';

/**
 * Wraps any model and appends each completed call to a JSONL cassette: the canonical request,
 * whether it streamed, and every response chunk as yielded. Replay it with `ReplayModel` to run
 * the same eval offline and deterministically. A call that throws or is abandoned is not
 * recorded.
 *
 * @example
 * ```ts
 * const model = new RecordingModel(createGemini()('gemini-2.5-flash'), { cassette: 'evals/weather.cassette.jsonl' });
 * ```
 */
export class RecordingModel implements Model {
  readonly name: string;
  readonly capabilities: ModelCapabilities | undefined;
  readonly #inner: Model;
  readonly #cassette: string;

  constructor(inner: Model, options: { cassette: string }) {
    this.#inner = inner;
    this.name = inner.name;
    this.capabilities = inner.capabilities;
    this.#cassette = options.cassette;
    mkdirSync(dirname(options.cassette), { recursive: true });
  }

  async *generate(request: LlmRequest, options: GenerateOptions): AsyncGenerator<LlmResponse> {
    const key = canonicalRequest(request);
    const responses: LlmResponse[] = [];
    for await (const response of this.#inner.generate(request, options)) {
      responses.push(structuredClone(response));
      yield response;
    }
    const entry: CassetteEntry = { request: key, stream: options.stream, responses };
    // Synchronous append: entries land in call order, whole lines only.
    appendFileSync(this.#cassette, `${JSON.stringify(entry)}\n`);
  }
}
