import type { WebSocket } from 'ws';

import { FakeResponsePlayer, words } from './fake-response-player';
import type {
  FakeRealtimeOptions,
  FakeRealtimeResponse,
  RecordedRealtimeConnection,
} from './realtime-script';

/** Realtime audio: PCM16 mono at 24 kHz, 48 bytes per millisecond. */
const BYTES_PER_MS = 48;

type ClientEvent = { type: string; [key: string]: unknown };

/** The shared script of one fake server, consumed by its sessions. */
export interface RealtimeScriptSource {
  next(): FakeRealtimeResponse | undefined;
  nextInputTranscript(): string | undefined;
}

/**
 * One connection of the fake Realtime server: keeps the session, the input audio buffer and the
 * conversation, answers client events in the GA wire format and plays scripted responses.
 */
export class FakeRealtimeSession {
  readonly #socket: WebSocket;
  readonly #record: RecordedRealtimeConnection;
  readonly #options: FakeRealtimeOptions;
  readonly #script: RealtimeScriptSource;
  #ids = 0;
  #bufferBytes = 0;
  #active: { id: string; cancel: () => void } | undefined;

  constructor(
    socket: WebSocket,
    record: RecordedRealtimeConnection,
    options: FakeRealtimeOptions,
    script: RealtimeScriptSource,
  ) {
    this.#socket = socket;
    this.#record = record;
    this.#options = options;
    this.#script = script;
    record.session = {
      type: 'realtime',
      object: 'realtime.session',
      id: this.#id('sess'),
      model: new URL(record.url, 'http://x').searchParams.get('model') ?? 'gpt-realtime',
      output_modalities: ['audio'],
      instructions: '',
      tools: [],
      tool_choice: 'auto',
      max_output_tokens: 'inf',
      audio: {
        input: {
          format: { type: 'audio/pcm', rate: 24000 },
          transcription: null,
          noise_reduction: null,
          turn_detection: {
            type: 'server_vad',
            threshold: 0.5,
            prefix_padding_ms: 300,
            silence_duration_ms: 200,
            create_response: true,
            interrupt_response: true,
          },
        },
        output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'alloy', speed: 1 },
      },
    };
  }

  /** Sends `session.created` (the first server event of every connection). */
  start(): void {
    this.#send({ type: 'session.created', session: this.#record.session });
  }

  /** Handles one client frame. */
  receive(text: string): void {
    let event: ClientEvent;
    try {
      event = JSON.parse(text) as ClientEvent;
    } catch {
      this.#error('invalid_request_error', 'invalid_json', 'The client sent invalid JSON.');
      return;
    }
    this.#record.events.push(event);
    switch (event.type) {
      case 'session.update':
        this.#updateSession(event.session as Record<string, unknown>);
        return;
      case 'input_audio_buffer.append':
        this.#append(String(event.audio ?? ''));
        return;
      case 'input_audio_buffer.clear':
        this.#bufferBytes = 0;
        this.#send({ type: 'input_audio_buffer.cleared' });
        return;
      case 'input_audio_buffer.commit':
        if (this.#bufferBytes === 0) {
          this.#error(
            'invalid_request_error',
            'input_audio_buffer_commit_empty',
            'Buffer is empty.',
          );
          return;
        }
        this.#commit();
        return;
      case 'conversation.item.create':
        this.#addItem(event.item as Record<string, unknown>);
        return;
      case 'conversation.item.truncate':
        this.#send({
          type: 'conversation.item.truncated',
          item_id: event.item_id,
          content_index: event.content_index,
          audio_end_ms: event.audio_end_ms,
        });
        return;
      case 'response.create':
        if (this.#active) {
          this.#error(
            'invalid_request_error',
            'conversation_already_has_active_response',
            `Conversation already has an active response in progress: ${this.#active.id}.`,
          );
          return;
        }
        void this.#respond();
        return;
      case 'response.cancel':
        if (!this.#active) {
          this.#error(
            'invalid_request_error',
            'response_cancel_not_active',
            'Cancellation failed: no active response found.',
          );
          return;
        }
        this.#active.cancel();
        return;
      default:
        this.#error(
          'invalid_request_error',
          'invalid_value',
          `Invalid value: '${event.type}'. Supported values are the Realtime client events.`,
        );
    }
  }

  #updateSession(update: Record<string, unknown>): void {
    if (update?.type !== 'realtime') {
      this.#error(
        'invalid_request_error',
        'missing_required_parameter',
        "Missing required parameter: 'session.type'.",
      );
      return;
    }
    this.#record.session = merge(this.#record.session, update);
    this.#send({ type: 'session.updated', session: this.#record.session });
  }

  #turnDetection(): Record<string, unknown> | null {
    const audio = this.#record.session.audio as { input?: { turn_detection?: unknown } };
    return (audio?.input?.turn_detection ?? null) as Record<string, unknown> | null;
  }

  #append(audio: string): void {
    const bytes = Buffer.from(audio, 'base64').length;
    this.#record.audioBytes += bytes;
    const wasEmpty = this.#bufferBytes === 0;
    this.#bufferBytes += bytes;
    const vad = this.#turnDetection();
    if (!vad) return;
    if (wasEmpty && bytes > 0) {
      this.#send({ type: 'input_audio_buffer.speech_started', audio_start_ms: 0, item_id: 'x' });
    }
    if (this.#bufferBytes >= (this.#options.vadUtteranceMs ?? 200) * BYTES_PER_MS) {
      this.#send({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: 0, item_id: 'x' });
      this.#commit();
      if (vad.create_response !== false && !this.#active) void this.#respond();
    }
  }

  #commit(): void {
    const itemId = this.#id('item');
    this.#bufferBytes = 0;
    this.#send({ type: 'input_audio_buffer.committed', previous_item_id: null, item_id: itemId });
    const item = {
      id: itemId,
      object: 'realtime.item',
      type: 'message',
      role: 'user',
      status: 'completed',
      content: [{ type: 'input_audio', transcript: null }],
    };
    this.#record.items.push(item);
    this.#send({ type: 'conversation.item.added', previous_item_id: null, item });
    const audio = this.#record.session.audio as { input?: { transcription?: unknown } };
    const transcript = audio?.input?.transcription ? this.#script.nextInputTranscript() : undefined;
    if (transcript === undefined) return;
    for (const piece of words(transcript)) {
      this.#send({
        type: 'conversation.item.input_audio_transcription.delta',
        item_id: itemId,
        content_index: 0,
        delta: piece,
      });
    }
    this.#send({
      type: 'conversation.item.input_audio_transcription.completed',
      item_id: itemId,
      content_index: 0,
      transcript,
      usage: { type: 'duration', seconds: 1 },
    });
  }

  #addItem(item: Record<string, unknown>): void {
    const stored: Record<string, unknown> = {
      status: 'completed',
      ...item,
      id: item.id ?? this.#id('item'),
      object: 'realtime.item',
    };
    this.#record.items.push(stored);
    this.#send({ type: 'conversation.item.added', previous_item_id: null, item: stored });
    this.#send({ type: 'conversation.item.done', previous_item_id: null, item: stored });
  }

  async #respond(): Promise<void> {
    const step = this.#script.next();
    if (!step) {
      this.#error(
        'server_error',
        'fake_script_exhausted',
        'The fake has no scripted response left.',
      );
      return;
    }
    if (step.error) return this.#error(step.error.type, step.error.code, step.error.message);
    if (step.malformed !== undefined) return this.#socket.send(step.malformed);
    if (step.close) return this.#socket.close(step.close.code, step.close.reason);
    if (step.silent) return;
    await new FakeResponsePlayer(this, step).play();
  }

  /** Internal to the player: a new id with `prefix`. */
  id(prefix: string): string {
    return this.#id(prefix);
  }

  /** Internal to the player: the session's output modalities and interrupt setting. */
  get settings(): { audio: boolean; interruptResponse: boolean; chunkDelayMs: number } {
    const modalities = (this.#record.session.output_modalities ?? ['audio']) as string[];
    return {
      audio: modalities.includes('audio'),
      interruptResponse: this.#turnDetection()?.interrupt_response !== false,
      chunkDelayMs: this.#options.chunkDelayMs ?? 0,
    };
  }

  /** Internal to the player: registers (or clears) the active response. */
  setActive(active: { id: string; cancel: () => void } | undefined): void {
    this.#active = active;
  }

  /** Internal to the player: a finished output item joins the conversation. */
  addOutputItem(item: Record<string, unknown>): void {
    this.#record.items.push(item);
  }

  /** Internal to the player: whether the socket is still open. */
  get open(): boolean {
    return this.#record.open;
  }

  /** Internal to the player: sends one server event (an `event_id` is added). */
  send(event: Record<string, unknown>): void {
    this.#send(event);
  }

  #send(event: Record<string, unknown>): void {
    if (!this.#record.open) return;
    this.#socket.send(JSON.stringify({ event_id: this.#id('event'), ...event }));
  }

  #error(type: string, code: string | undefined, message: string): void {
    this.#send({ type: 'error', error: { type, code: code ?? null, message, param: null } });
  }

  #id(prefix: string): string {
    this.#ids += 1;
    return `${prefix}_fake${String(this.#ids).padStart(6, '0')}`;
  }
}

function merge(
  base: Record<string, unknown>,
  update: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(update)) {
    const previous = out[key];
    out[key] = isPlainObject(value) && isPlainObject(previous) ? merge(previous, value) : value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
