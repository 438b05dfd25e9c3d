/** A function call the fake Realtime model makes inside a response. */
export interface FakeRealtimeCall {
  /** `call_id`; invented (`call_...`) when absent. */
  callId?: string;
  name: string;
  args?: Record<string, unknown>;
  /** The arguments' JSON text, sent as is instead of `args`. */
  rawArgs?: string;
}

/**
 * One scripted model response, run when the client sends `response.create` or when the fake's
 * voice activity detection commits the user's audio (server VAD mode). Parts are sent in this
 * order: audio (with its transcript), text, function calls, then `response.done`. A fault
 * (`error`, `malformed`, `close`, `silent`) replaces the response.
 */
export interface FakeRealtimeResponse {
  /** Spoken answer: this many milliseconds of 24 kHz PCM16 audio, in `audioChunkMs` deltas. */
  audioMs?: number;
  /** Size of one `response.output_audio.delta` in milliseconds (default 40). */
  audioChunkMs?: number;
  /** Transcript of the spoken answer (`response.output_audio_transcript.*`), in word deltas. */
  transcript?: string;
  /** Text answer (`response.output_text.*`) when the session's `output_modalities` is text. */
  text?: string;
  /** Function calls, sent after the audio (so they arrive while audio is still playing). */
  calls?: FakeRealtimeCall[];
  /**
   * Send the function calls before the audio, so the client gets a call while the response is
   * still streaming (use with `chunkDelayMs`).
   */
  callsFirst?: boolean;
  /** Token usage in `response.done` (defaults derived from the content). */
  usage?: { inputTokens: number; outputTokens: number };
  /**
   * Barge-in: after this many audio deltas the fake's VAD hears the user
   * (`input_audio_buffer.speech_started`) and the response stops; it ends with
   * `response.done` status `cancelled` when the client sends `response.cancel` (or at once when
   * the session's `turn_detection.interrupt_response` is on, as the real server does).
   */
  bargeInAfterChunks?: number;
  /** Instead of a response: an `error` event (the connection stays open, as on the real API). */
  error?: { type: string; code?: string; message: string };
  /** Instead of a response: this text sent as one frame (say, `{not json`). */
  malformed?: string;
  /** Instead of a response: close the connection with this code and reason. */
  close?: { code: number; reason?: string };
  /** Instead of a response: nothing at all (for abort and close tests). */
  silent?: boolean;
}

/** What the client sent on one connection, recorded in order. */
export interface RecordedRealtimeConnection {
  /** Path and query of the upgrade request, e.g. `/v1/realtime?model=gpt-realtime`. */
  url: string;
  /** Upgrade request headers (lower-case names). */
  headers: Record<string, string | string[] | undefined>;
  /** Every client event, parsed. */
  events: Array<{ type: string; [key: string]: unknown }>;
  /** The session as last updated by `session.update`. */
  session: Record<string, unknown>;
  /** Items in the conversation (created by the client, by VAD commits and by responses). */
  items: Array<Record<string, unknown>>;
  /** Total PCM16 bytes received through `input_audio_buffer.append`. */
  audioBytes: number;
  /** Whether the connection is still open. */
  open: boolean;
}

/** Options of `startFakeOpenAIRealtime`. */
export interface FakeRealtimeOptions {
  /** Responses consumed in order; with none left the fake sends an `error` event. */
  script?: FakeRealtimeResponse[];
  /** Required key (`Authorization: Bearer <key>` or `api-key: <key>`); unset accepts any. */
  apiKey?: string;
  /** Server VAD: audio appended since the last commit that counts as one utterance (default 200 ms). */
  vadUtteranceMs?: number;
  /** Input transcripts, consumed one per committed utterance (when transcription is on). */
  inputTranscripts?: string[];
  /** Handshake faults: refuse the upgrade with this HTTP status, or never send `session.created`. */
  handshake?: { status: number; message?: string } | 'silent';
  /** Delay between two audio deltas, in milliseconds (default 0). */
  chunkDelayMs?: number;
}

/** A running fake OpenAI Realtime server. */
export interface FakeRealtimeServer {
  /** `http://127.0.0.1:<port>/v1`: pass it as `createOpenAI({ baseURL })`. */
  readonly baseURL: string;
  /** `ws://127.0.0.1:<port>/v1/realtime`. */
  readonly realtimeURL: string;
  /** One entry per accepted connection, in order. */
  readonly connections: RecordedRealtimeConnection[];
  /** Scripted responses not yet used. */
  readonly pending: number;
  /** Append responses to the script. */
  push(...responses: FakeRealtimeResponse[]): void;
  /** Close every connection with this code (default 1012, "service restart") and reason. */
  dropAll(code?: number, reason?: string): void;
  /** Stop the server, closing every connection. */
  close(): Promise<void>;
}
