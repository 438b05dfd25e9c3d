import type {
  Content,
  GenerateOptions,
  LiveConnection,
  LiveConnectOptions,
  LiveRealtimeInput,
  LlmRequest,
  LlmResponse,
  Model,
} from '@adk/core';

import { DemoModel } from './demo-model';

/** What the offline demo says to audio: it has no speech recognition. */
export const DEMO_LIVE_AUDIO_NOTICE =
  'The offline demo cannot hear audio. Type instead, or set GEMINI_API_KEY to talk to the Gemini Live model.';

/**
 * The offline stand-in for a live model: the rules of {@link DemoModel} over a live connection,
 * so the playground's `voice` app (and `/run_live`) works with no API key. Text turns get the
 * demo's answer (streamed text with `TEXT`, an output transcription with `AUDIO`) and its tool
 * calls; audio gets one notice per connection.
 */
export class DemoLiveModel implements Model {
  readonly name = 'offline-demo-live';
  readonly #demo = new DemoModel({ wordDelayMs: 0 });

  generate(request: LlmRequest, options: GenerateOptions): AsyncIterable<LlmResponse> {
    return this.#demo.generate(request, options);
  }

  async connectLive(request: LlmRequest, options: LiveConnectOptions): Promise<LiveConnection> {
    options.signal?.throwIfAborted();
    return new DemoLiveConnection(this.#demo, request);
  }
}

class DemoLiveConnection implements LiveConnection {
  readonly #contents: Content[] = [];
  readonly #pending: LlmResponse[] = [];
  readonly #controller = new AbortController();
  #wake: (() => void) | undefined;
  #closed = false;
  #noticed = false;

  constructor(
    private readonly demo: DemoModel,
    private readonly request: LlmRequest,
  ) {}

  async sendHistory(history: readonly Content[]): Promise<void> {
    this.#contents.push(...history);
  }

  async sendContent(content: Content): Promise<void> {
    this.#contents.push(content);
    const text = this.request.liveConnectConfig?.responseModalities?.[0] === 'TEXT';
    for await (const response of this.demo.generate(
      { ...this.request, contents: [...this.#contents] },
      { stream: false, signal: this.#controller.signal },
    )) {
      if (response.partial || !response.content) continue;
      this.#contents.push(response.content);
      const answer = response.content.parts.map((part) => part.text ?? '').join('');
      if (response.content.parts.some((part) => part.functionCall) || text) {
        this.#emit({ content: response.content });
      } else {
        this.#emit({ outputTranscription: { text: answer, finished: true } });
      }
      if (!response.content.parts.some((part) => part.functionCall)) {
        this.#emit({
          turnComplete: true,
          ...(response.usageMetadata ? { usageMetadata: response.usageMetadata } : {}),
        });
      }
    }
  }

  async sendRealtime(input: LiveRealtimeInput): Promise<void> {
    if (!('blob' in input) || !input.blob.mimeType.startsWith('audio/') || this.#noticed) return;
    this.#noticed = true;
    this.#emit({ outputTranscription: { text: DEMO_LIVE_AUDIO_NOTICE, finished: true } });
    this.#emit({ turnComplete: true });
  }

  async *receive(): AsyncGenerator<LlmResponse, void> {
    for (;;) {
      const next = this.#pending.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.#closed) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#controller.abort();
    this.#notify();
  }

  #emit(response: LlmResponse): void {
    if (this.#closed) return;
    this.#pending.push(response);
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
