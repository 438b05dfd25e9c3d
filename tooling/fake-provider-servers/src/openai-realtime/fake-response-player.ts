import type { FakeRealtimeResponse } from './realtime-script';

/** What a {@link FakeResponsePlayer} needs from its session. */
export interface ResponsePlayerHost {
  id(prefix: string): string;
  readonly settings: { audio: boolean; interruptResponse: boolean; chunkDelayMs: number };
  setActive(active: { id: string; cancel: () => void } | undefined): void;
  addOutputItem(item: Record<string, unknown>): void;
  send(event: Record<string, unknown>): void;
}

/** Plays one scripted response as the GA server events. */
export class FakeResponsePlayer {
  readonly #session: ResponsePlayerHost;
  readonly #step: FakeRealtimeResponse;
  readonly #id: string;
  #cancelled = false;
  #wakeCancel: (() => void) | undefined;
  readonly #output: Array<Record<string, unknown>> = [];

  constructor(session: ResponsePlayerHost, step: FakeRealtimeResponse) {
    this.#session = session;
    this.#step = step;
    this.#id = session.id('resp');
  }

  async play(): Promise<void> {
    const session = this.#session;
    const { audio } = session.settings;
    session.setActive({ id: this.#id, cancel: () => this.#cancel() });
    session.send({
      type: 'response.created',
      response: this.#response('in_progress', []),
    });
    const step = this.#step;
    if (step.callsFirst) for (const call of step.calls ?? []) this.#call(call);
    if (audio && (step.audioMs || step.transcript)) await this.#message('audio');
    if (!this.#cancelled && step.text !== undefined) await this.#message('text');
    if (!step.callsFirst)
      for (const call of step.calls ?? []) if (!this.#cancelled) this.#call(call);
    session.setActive(undefined);
    const out = this.#output.map((item) => JSON.stringify(item)).join('').length;
    const usage = step.usage ?? { inputTokens: 20, outputTokens: Math.max(1, out >> 4) };
    session.send({
      type: 'response.done',
      response: {
        ...this.#response(this.#cancelled ? 'cancelled' : 'completed', this.#output),
        ...(this.#cancelled
          ? { status_details: { type: 'cancelled', reason: 'turn_detected' } }
          : {}),
        usage: {
          total_tokens: usage.inputTokens + usage.outputTokens,
          input_tokens: usage.inputTokens,
          output_tokens: usage.outputTokens,
          input_token_details: {
            text_tokens: usage.inputTokens,
            audio_tokens: 0,
            cached_tokens: 0,
          },
          output_token_details: { text_tokens: usage.outputTokens, audio_tokens: 0 },
        },
      },
    });
  }

  #response(status: string, output: unknown[]): Record<string, unknown> {
    const { audio } = this.#session.settings;
    return {
      object: 'realtime.response',
      id: this.#id,
      status,
      status_details: null,
      output,
      conversation_id: 'conv_fake',
      output_modalities: [audio ? 'audio' : 'text'],
      max_output_tokens: 'inf',
      audio: { output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'alloy' } },
      usage: null,
      metadata: null,
    };
  }

  async #message(kind: 'audio' | 'text'): Promise<void> {
    const session = this.#session;
    const step = this.#step;
    const itemId = session.id('item');
    const outputIndex = this.#output.length;
    const item: Record<string, unknown> = {
      id: itemId,
      object: 'realtime.item',
      type: 'message',
      role: 'assistant',
      status: 'in_progress',
      content: [],
    };
    const at = { response_id: this.#id, item_id: itemId, output_index: outputIndex };
    session.send({
      type: 'response.output_item.added',
      response_id: this.#id,
      output_index: outputIndex,
      item,
    });
    session.send({ type: 'conversation.item.added', previous_item_id: null, item });
    const emptyPart =
      kind === 'audio' ? { type: 'audio', transcript: '' } : { type: 'text', text: '' };
    session.send({ type: 'response.content_part.added', ...at, content_index: 0, part: emptyPart });
    let part: Record<string, unknown>;
    if (kind === 'text') {
      const text = step.text ?? '';
      for (const delta of words(text)) {
        session.send({ type: 'response.output_text.delta', ...at, content_index: 0, delta });
      }
      session.send({ type: 'response.output_text.done', ...at, content_index: 0, text });
      part = { type: 'output_text', text };
    } else {
      const transcript = step.transcript ?? '';
      const pieces = words(transcript);
      const chunkMs = step.audioChunkMs ?? 40;
      const chunks = Math.ceil((step.audioMs ?? 0) / chunkMs);
      let sent = 0;
      for (let i = 0; i < Math.max(chunks, pieces.length) && !this.#cancelled; i += 1) {
        const piece = pieces[i];
        if (piece !== undefined) {
          session.send({
            type: 'response.output_audio_transcript.delta',
            ...at,
            content_index: 0,
            delta: piece,
          });
        }
        if (i < chunks) {
          session.send({
            type: 'response.output_audio.delta',
            ...at,
            content_index: 0,
            delta: tone(sent, chunkMs).toString('base64'),
          });
          sent += chunkMs;
        }
        if (step.bargeInAfterChunks !== undefined && i + 1 === step.bargeInAfterChunks) {
          await this.#bargeIn();
          break;
        }
        if (session.settings.chunkDelayMs > 0) await sleep(session.settings.chunkDelayMs);
      }
      if (!this.#cancelled) {
        session.send({ type: 'response.output_audio.done', ...at, content_index: 0 });
        session.send({
          type: 'response.output_audio_transcript.done',
          ...at,
          content_index: 0,
          transcript,
        });
      }
      part = { type: 'output_audio', transcript };
    }
    item.status = this.#cancelled ? 'incomplete' : 'completed';
    item.content = [part];
    if (!this.#cancelled) {
      session.send({
        type: 'response.content_part.done',
        ...at,
        content_index: 0,
        part:
          kind === 'audio'
            ? { type: 'audio', transcript: part.transcript }
            : { type: 'text', text: part.text },
      });
    }
    session.send({
      type: 'response.output_item.done',
      response_id: this.#id,
      output_index: outputIndex,
      item,
    });
    session.send({ type: 'conversation.item.done', previous_item_id: null, item });
    session.addOutputItem(item);
    this.#output.push(item);
  }

  async #bargeIn(): Promise<void> {
    const session = this.#session;
    session.send({
      type: 'input_audio_buffer.speech_started',
      audio_start_ms: 1000,
      item_id: session.id('item'),
    });
    if (session.settings.interruptResponse) {
      this.#cancelled = true;
      return;
    }
    await new Promise<void>((resolve) => {
      if (this.#cancelled) resolve();
      else this.#wakeCancel = resolve;
    });
  }

  #cancel(): void {
    this.#cancelled = true;
    this.#wakeCancel?.();
  }

  #call(call: NonNullable<FakeRealtimeResponse['calls']>[number]): void {
    const session = this.#session;
    const itemId = session.id('item');
    const callId = call.callId ?? session.id('call');
    const outputIndex = this.#output.length;
    const args = call.rawArgs ?? JSON.stringify(call.args ?? {});
    const item: Record<string, unknown> = {
      id: itemId,
      object: 'realtime.item',
      type: 'function_call',
      status: 'in_progress',
      name: call.name,
      call_id: callId,
      arguments: '',
    };
    session.send({
      type: 'response.output_item.added',
      response_id: this.#id,
      output_index: outputIndex,
      item,
    });
    session.send({ type: 'conversation.item.added', previous_item_id: null, item });
    const at = {
      response_id: this.#id,
      item_id: itemId,
      output_index: outputIndex,
      call_id: callId,
    };
    for (let i = 0; i < args.length; i += 8) {
      session.send({
        type: 'response.function_call_arguments.delta',
        ...at,
        delta: args.slice(i, i + 8),
      });
    }
    session.send({
      type: 'response.function_call_arguments.done',
      ...at,
      name: call.name,
      arguments: args,
    });
    const done = { ...item, status: 'completed', arguments: args };
    session.send({
      type: 'response.output_item.done',
      response_id: this.#id,
      output_index: outputIndex,
      item: done,
    });
    session.send({ type: 'conversation.item.done', previous_item_id: null, item: done });
    session.addOutputItem(done);
    this.#output.push(done);
  }
}

/** `text` cut into word pieces that join back to it. */
export function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** `ms` milliseconds of a quiet 440 Hz tone starting at `startMs`, PCM16 24 kHz. */
function tone(startMs: number, ms: number): Buffer {
  const samples = ms * 24;
  const buffer = Buffer.alloc(samples * 2);
  const start = startMs * 24;
  for (let i = 0; i < samples; i += 1) {
    const value = Math.round(3000 * Math.sin((2 * Math.PI * 440 * (start + i)) / 24000));
    buffer.writeInt16LE(value, i * 2);
  }
  return buffer;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
