import {
  PlainBlob,
  plainBlobOf,
  type LlmResponse,
  type Transcription,
  type UsageMetadata,
} from '@adk/core';

import { parseToolCall } from '../convert/from-openai-response';
import { REALTIME_PCM_RATE } from './pcm-resampler';
import type { RealtimeClientEvent, RealtimeServerEvent, RealtimeUsage } from './realtime-wire';

/** MIME type of the audio the Realtime API sends. */
export const REALTIME_OUTPUT_AUDIO_MIME_TYPE = `audio/pcm;rate=${REALTIME_PCM_RATE}`;

const BYTES_PER_MS = (REALTIME_PCM_RATE * 2) / 1000;

/** What one server event means: responses for the caller and client events to send back. */
export interface MappedEvent {
  responses: LlmResponse[];
  send: RealtimeClientEvent[];
}

/** The assistant audio item being played, for truncation on barge-in. */
interface PlayingAudio {
  responseId: string | undefined;
  itemId: string;
  contentIndex: number;
  receivedMs: number;
  firstDeltaAt: number;
}

/**
 * The conversation state of one Realtime connection, driven by its server events: maps them onto
 * {@link LlmResponse}s and decides the client events they call for (barge-in cancellation and
 * truncation, the response requested once every function call of a turn has its output).
 *
 * Only one response can be active on the API; a response asked for while one runs
 * (`requestResponse`) is sent when it is done.
 */
export class RealtimeEventMapper {
  readonly #outputTranscription: boolean;
  readonly #interrupts: boolean;
  readonly #now: () => number;
  #response: 'idle' | 'requested' | 'active' = 'idle';
  #activeId: string | undefined;
  #wanted = false;
  readonly #pendingCalls = new Set<string>();
  #callsInResponse = false;
  #playing: PlayingAudio | undefined;
  readonly #interrupted = new Set<string>();
  /** Transcription text received so far, by `in:` / `out:` and item id. */
  readonly #transcripts = new Map<string, string>();
  /** Usage of the responses of the current turn (a turn with function calls has several). */
  #turnUsage: UsageMetadata | undefined;

  /**
   * `outputTranscription`: report the model's audio transcript. `interrupts`: the user's speech
   * (`input_audio_buffer.speech_started`) interrupts the model (false for `NO_INTERRUPTION`).
   */
  constructor(options: { outputTranscription: boolean; interrupts: boolean; now?: () => number }) {
    this.#outputTranscription = options.outputTranscription;
    this.#interrupts = options.interrupts;
    this.#now = options.now ?? Date.now;
  }

  /** Function calls of the model still waiting for their output. */
  get pendingCalls(): ReadonlySet<string> {
    return this.#pendingCalls;
  }

  /** The client events that ask for a response now, or once the active one is done. */
  requestResponse(): RealtimeClientEvent[] {
    if (this.#response !== 'idle') {
      this.#wanted = true;
      return [];
    }
    this.#response = 'requested';
    return [{ type: 'response.create' }];
  }

  /** Records function outputs sent; true when no call of the turn is left unanswered. */
  answered(callIds: readonly string[]): boolean {
    for (const id of callIds) this.#pendingCalls.delete(id);
    return this.#pendingCalls.size === 0;
  }

  /**
   * Barge-in (the user started speaking, or sent `activityStart`): the events that stop the
   * model's answer (cancel the active response, truncate the assistant audio item at the audio
   * played so far) and the `interrupted` response, or nothing when the model is not speaking.
   */
  interrupt(): MappedEvent {
    const playing = this.#playing;
    const send: RealtimeClientEvent[] = [];
    if (this.#response === 'active' && this.#activeId) {
      this.#interrupted.add(this.#activeId);
      send.push({ type: 'response.cancel' });
    }
    if (playing) {
      // Playback runs in real time from the first delta: what was heard is at most the time
      // since then, and at most what arrived.
      const played = Math.min(playing.receivedMs, this.#now() - playing.firstDeltaAt);
      if (playing.responseId) this.#interrupted.add(playing.responseId);
      if (played < playing.receivedMs) {
        send.push({
          type: 'conversation.item.truncate',
          item_id: playing.itemId,
          content_index: playing.contentIndex,
          audio_end_ms: Math.max(0, Math.floor(played)),
        });
      }
      this.#playing = undefined;
    }
    if (send.length === 0) return { responses: [], send };
    return { responses: [{ interrupted: true }], send };
  }

  /**
   * Maps one server event. `audio`: the delta of a `response.output_audio.delta` event already
   * checked as a blob of {@link REALTIME_OUTPUT_AUDIO_MIME_TYPE} (`readAudioDelta`), so it is
   * not checked again.
   */
  map(event: RealtimeServerEvent, audio?: PlainBlob): MappedEvent {
    if (event.response_id && this.#interrupted.has(event.response_id)) {
      if (event.type !== 'response.done') return none();
    }
    switch (event.type) {
      case 'response.created':
        this.#response = 'active';
        this.#activeId = event.response?.id;
        this.#callsInResponse = false;
        return none();
      case 'response.output_audio.delta': {
        if (!event.delta || !event.item_id) return none();
        const ms = Buffer.byteLength(event.delta, 'base64') / BYTES_PER_MS;
        if (this.#playing?.itemId !== event.item_id) {
          this.#playing = {
            responseId: event.response_id,
            itemId: event.item_id,
            contentIndex: event.content_index ?? 0,
            receivedMs: 0,
            firstDeltaAt: this.#now(),
          };
        }
        this.#playing.receivedMs += ms;
        return one({
          content: {
            role: 'model',
            parts: [
              // Checked once, the server writes the chunk without scanning it again.
              {
                inlineData: isAudioOf(audio, event.delta)
                  ? audio
                  : PlainBlob.of(REALTIME_OUTPUT_AUDIO_MIME_TYPE, event.delta),
              },
            ],
          },
          partial: true,
        });
      }
      case 'response.output_text.delta':
        if (!event.delta) return none();
        return one({ content: { role: 'model', parts: [{ text: event.delta }] }, partial: true });
      case 'response.output_text.done':
        return one({ content: { role: 'model', parts: [{ text: event.text ?? '' }] } });
      case 'response.output_audio_transcript.delta':
        if (!this.#outputTranscription || !event.delta) return none();
        this.#heard(`out:${event.item_id}`, event.delta);
        return one({ outputTranscription: { text: event.delta, finished: false }, partial: true });
      case 'response.output_audio_transcript.done':
        if (!this.#outputTranscription) return none();
        return one({
          outputTranscription: this.#finished(`out:${event.item_id}`, event.transcript),
        });
      case 'conversation.item.input_audio_transcription.delta':
        if (!event.delta) return none();
        this.#heard(`in:${event.item_id}`, event.delta);
        return one({ inputTranscription: { text: event.delta, finished: false }, partial: true });
      case 'conversation.item.input_audio_transcription.completed':
        return one({ inputTranscription: this.#finished(`in:${event.item_id}`, event.transcript) });
      case 'response.function_call_arguments.done':
        return one(this.#functionCall(event));
      case 'input_audio_buffer.speech_started':
        return this.#interrupts ? this.interrupt() : none();
      case 'response.done':
        return this.#done(event);
      default:
        return none();
    }
  }

  #heard(key: string, delta: string): void {
    this.#transcripts.set(key, (this.#transcripts.get(key) ?? '') + delta);
  }

  /**
   * The chunk that ends a transcription: the contract's chunks add up to the utterance, so it
   * holds what the deltas did not already bring (all of it when the transcription model sends no
   * deltas, as `whisper-1` does).
   */
  #finished(key: string, full: string | undefined): Transcription {
    const sent = this.#transcripts.get(key) ?? '';
    this.#transcripts.delete(key);
    const whole = full ?? '';
    const rest = sent === '' ? whole : whole.startsWith(sent) ? whole.slice(sent.length) : '';
    return rest ? { text: rest, finished: true } : { finished: true };
  }

  #functionCall(event: RealtimeServerEvent): LlmResponse {
    const name = event.name ?? '';
    const call = parseToolCall({ id: event.call_id, name, arguments: event.arguments ?? '' });
    this.#callsInResponse = true;
    if (!call) {
      return {
        errorCode: 'MALFORMED_FUNCTION_CALL',
        errorMessage: `OpenAI Realtime sent arguments for "${name}" that are not a JSON object: ${(event.arguments ?? '').slice(0, 200)}`,
        finishReason: 'MALFORMED_FUNCTION_CALL',
      };
    }
    this.#pendingCalls.add(call.id as string);
    return { content: { role: 'model', parts: [{ functionCall: call }] } };
  }

  #done(event: RealtimeServerEvent): MappedEvent {
    const response = event.response ?? {};
    const id = response.id;
    if (id) this.#interrupted.delete(id);
    if (this.#playing && this.#playing.responseId === id) {
      // The audio keeps playing after the response is done; it can still be interrupted until
      // playback has caught up.
      const left = this.#playing.receivedMs - (this.#now() - this.#playing.firstDeltaAt);
      if (left <= 0) this.#playing = undefined;
    }
    this.#response = 'idle';
    this.#activeId = undefined;
    const result: LlmResponse = {};
    if (response.usage)
      this.#turnUsage = addUsage(this.#turnUsage, toRealtimeUsage(response.usage));
    if (response.status === 'failed') {
      const error = response.status_details?.error;
      result.errorCode = error?.code ?? error?.type ?? 'RESPONSE_FAILED';
      result.errorMessage = `OpenAI Realtime response failed (${error?.type ?? 'unknown'}).`;
    } else if (response.status === 'incomplete') {
      const reason = response.status_details?.reason;
      result.finishReason =
        reason === 'max_output_tokens'
          ? 'MAX_TOKENS'
          : reason === 'content_filter'
            ? 'SAFETY'
            : 'OTHER';
    }
    // A turn that called functions goes on with the response their outputs ask for; the usage of
    // all its responses is reported together at its end.
    if (!this.#callsInResponse) {
      result.turnComplete = true;
      if (this.#turnUsage) result.usageMetadata = this.#turnUsage;
      this.#turnUsage = undefined;
    }
    this.#callsInResponse = false;
    const send: RealtimeClientEvent[] = [];
    if (this.#wanted) {
      this.#wanted = false;
      send.push(...this.requestResponse());
    }
    const responses = Object.keys(result).length > 0 ? [result] : [];
    return { responses, send };
  }
}

/** Whether `audio` is a checked blob of the Realtime audio type holding `delta`. */
function isAudioOf(audio: PlainBlob | undefined, delta: string): audio is PlainBlob {
  return (
    audio !== undefined &&
    plainBlobOf(audio) === audio &&
    audio.data === delta &&
    audio.mimeType === REALTIME_OUTPUT_AUDIO_MIME_TYPE
  );
}

/** Nothing to report or send (a new object each time: callers may add to it). */
function none(): MappedEvent {
  return { responses: [], send: [] };
}

/** One response to report, nothing to send. */
function one(response: LlmResponse): MappedEvent {
  return { responses: [response], send: [] };
}

function addUsage(sum: UsageMetadata | undefined, next: UsageMetadata): UsageMetadata {
  if (!sum) return next;
  const total: UsageMetadata = {};
  for (const key of [
    'promptTokenCount',
    'candidatesTokenCount',
    'totalTokenCount',
    'cachedContentTokenCount',
  ] as const) {
    if (sum[key] !== undefined || next[key] !== undefined)
      total[key] = (sum[key] ?? 0) + (next[key] ?? 0);
  }
  return total;
}

/** `response.done` usage in the Gemini / ADK names. */
export function toRealtimeUsage(usage: RealtimeUsage): UsageMetadata {
  const result: UsageMetadata = {
    promptTokenCount: usage.input_tokens ?? 0,
    candidatesTokenCount: usage.output_tokens ?? 0,
    totalTokenCount: usage.total_tokens ?? (usage.input_tokens ?? 0) + (usage.output_tokens ?? 0),
  };
  const cached = usage.input_token_details?.cached_tokens ?? 0;
  if (cached > 0) result.cachedContentTokenCount = cached;
  return result;
}
