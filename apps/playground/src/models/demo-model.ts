import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import type { GenerateOptions, LlmRequest, LlmResponse, Model } from '@adk/core';

import { planDemoResponse } from './demo-planner';

/** Options of {@link DemoModel}. */
export interface DemoModelOptions {
  /** Pause between streamed words, in milliseconds (default 25; 0 streams at once). */
  wordDelayMs?: number;
}

/**
 * The playground's offline demo model: deterministic rules instead of a language model, so the
 * playground works with no API key. It routes questions to the matching specialist with
 * `transfer_to_agent`, calls the specialist's tools, and answers from the tool results, streaming
 * its answer word by word.
 */
export class DemoModel implements Model {
  readonly name = 'offline-demo';
  private readonly wordDelayMs: number;

  constructor(options: DemoModelOptions = {}) {
    this.wordDelayMs = options.wordDelayMs ?? 25;
  }

  async *generate(request: LlmRequest, options: GenerateOptions): AsyncIterable<LlmResponse> {
    options.signal?.throwIfAborted();
    const plan = planDemoResponse(request);
    const usageMetadata = {
      promptTokenCount: JSON.stringify(request.contents).length >> 2,
      candidatesTokenCount: 0,
    };
    if (plan.kind === 'call') {
      yield {
        content: {
          role: 'model',
          parts: [
            { functionCall: { id: `demo-${randomUUID()}`, name: plan.name, args: plan.args } },
          ],
        },
        finishReason: 'STOP',
        turnComplete: true,
        usageMetadata: { ...usageMetadata, candidatesTokenCount: 8 },
        modelVersion: this.name,
      };
      return;
    }
    const pieces = plan.text.split(/(?<= )/);
    if (options.stream) {
      for (const piece of pieces) {
        if (this.wordDelayMs > 0)
          await sleep(this.wordDelayMs, undefined, { signal: options.signal });
        options.signal?.throwIfAborted();
        yield { content: { role: 'model', parts: [{ text: piece }] }, partial: true };
      }
    }
    yield {
      content: { role: 'model', parts: [{ text: plan.text }] },
      finishReason: 'STOP',
      turnComplete: true,
      usageMetadata: { ...usageMetadata, candidatesTokenCount: pieces.length },
      modelVersion: this.name,
    };
  }
}
