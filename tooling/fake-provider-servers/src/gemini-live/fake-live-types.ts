import type { FakeToolCall, FakeUsage } from '../types';

/**
 * What the fake Gemini Live server does at the end of a scripted turn (or instead of it): a
 * `goAway` notice, a dropped socket, a close frame with an error code, or an unparseable frame.
 */
export interface FakeLiveFaults {
  /** Send `goAway` with this `timeLeft` (milliseconds, sent as a protobuf duration like `"5s"`). */
  goAwayMs?: number;
  /** Destroy the socket without a close frame (the client sees code 1006): a dropped connection. */
  drop?: boolean;
  /** Close with this code and reason (e.g. 1011 `Internal error encountered.`). */
  close?: { code: number; reason: string };
  /** Send a binary frame that is not JSON. */
  malformed?: boolean;
}

/**
 * One scripted model turn, started by the user ending a turn: `clientContent` with
 * `turnComplete`, `activityEnd`, `audioStreamEnd`, a `toolResponse`, or enough realtime audio
 * chunks (`respondAfterAudioChunks`, the fake's voice activity detection).
 */
export interface FakeLiveTurn {
  /** Transcript of the user's audio, sent as `inputTranscription` pieces (input transcription on). */
  inputTranscript?: string;
  /** Text answer (TEXT modality): `modelTurn` text parts, about two words each. */
  text?: string;
  /** Audio answer: this many `modelTurn` chunks of 24 kHz 16-bit PCM. */
  audioChunks?: number;
  /** Bytes of PCM per audio chunk; default 960 (20 ms at 24 kHz). */
  audioChunkBytes?: number;
  /** Pause between two audio chunks, so a client can barge in; default 0. */
  audioIntervalMs?: number;
  /** Transcript of the model's audio, sent as `outputTranscription` pieces (output transcription on). */
  outputTranscript?: string;
  /**
   * Function calls sent as one `toolCall` after the audio and text. The turn then waits for the
   * client's `toolResponse` (audio does not end it) and the next scripted turn answers it.
   */
  toolCalls?: FakeToolCall[];
  /** Send `toolCallCancellation` for these call ids after the `toolCall`. */
  cancelToolCalls?: string[];
  /** Token counts sent as `usageMetadata` with `turnComplete`. */
  usage?: FakeUsage;
  /** Faults applied after the turn's content (instead of `turnComplete` for `drop`/`close`/`malformed`). */
  faults?: FakeLiveFaults;
}

/** A message a client sent, parsed, with the time it arrived. */
export interface FakeLiveClientMessage {
  /** `setup`, `clientContent`, `realtimeInput`, `toolResponse`, or `unknown`. */
  type: string;
  body: Record<string, unknown>;
}

/** One WebSocket connection the fake accepted. */
export interface FakeLiveConnection {
  /** Path of the upgrade request (`/ws/google.ai.generativelanguage.v1beta...`). */
  path: string;
  /** `gemini` or `vertex`, from the path. */
  backend: 'gemini' | 'vertex';
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** The `setup` message body, once received. */
  setup?: Record<string, unknown>;
  /** The handle the client resumed from, when its setup named a known one. */
  resumedFrom?: string;
  /** Every message after `setup`, in order. */
  messages: FakeLiveClientMessage[];
  /** Close code of the connection as the server saw it (1005: none given, 1006: dropped). */
  closeCode?: number;
  /** Whether the socket is still open. */
  open: boolean;
}

/** Options of {@link startFakeGeminiLive}. */
export interface FakeGeminiLiveOptions {
  /** Turns consumed in order across every connection (a resumed session continues the script). */
  script?: FakeLiveTurn[];
  /** Realtime audio chunks that end a user turn when no explicit signal comes; default 3. */
  respondAfterAudioChunks?: number;
  /** Never answer `setup` (the client's setup timeout fires). */
  holdSetup?: boolean;
  /** Refuse `setup` by closing with this code and reason (e.g. 1008 for a bad key). */
  rejectSetup?: { code: number; reason: string };
  /** Send text frames instead of the binary frames the real service sends. */
  textFrames?: boolean;
  port?: number;
}

/** A running fake Gemini Live server. */
export interface FakeGeminiLiveServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The provider's `baseURL` for the Gemini API (`<url>/v1beta`). */
  baseURL: string;
  /** Every connection accepted, in order. */
  connections: FakeLiveConnection[];
  /** Connections whose socket is still open. */
  readonly openConnections: number;
  /** Every resumption handle the fake has issued. */
  readonly handles: readonly string[];
  /** Appends turns to the script. */
  push(...turns: FakeLiveTurn[]): void;
  /** Scripted turns not yet played. */
  readonly pending: number;
  /** Resolves when a connection has received a message matching `predicate`. */
  waitForMessage(
    predicate: (message: FakeLiveClientMessage, connection: FakeLiveConnection) => boolean,
  ): Promise<FakeLiveClientMessage>;
  /** Closes the server and every open connection. */
  close(): Promise<void>;
}
