import type { Blob, Content } from '../content';
import type { LlmResponse } from './llm-response';

export type {
  LiveGoAway,
  LiveSessionResumptionUpdate,
  Transcription,
} from './live-response-fields';

/**
 * Voice settings of a live run (Gemini's `SpeechConfig` shape; OpenAI maps `voiceName` to its
 * `voice` and ignores `languageCode` where its API has none).
 */
export interface SpeechConfig {
  voiceConfig?: { prebuiltVoiceConfig?: { voiceName?: string } };
  /** BCP-47 language of the spoken output, e.g. `en-US`. */
  languageCode?: string;
}

/** Ask the provider to transcribe input or output audio (no options yet; the object turns it on). */
export type AudioTranscriptionConfig = Record<string, never>;

/** How the provider detects when the user starts and stops speaking. */
export interface RealtimeInputConfig {
  automaticActivityDetection?: {
    /** `true`: the client sends `activityStart` / `activityEnd` itself. */
    disabled?: boolean;
    startOfSpeechSensitivity?: 'START_SENSITIVITY_HIGH' | 'START_SENSITIVITY_LOW';
    endOfSpeechSensitivity?: 'END_SENSITIVITY_HIGH' | 'END_SENSITIVITY_LOW';
    prefixPaddingMs?: number;
    silenceDurationMs?: number;
  };
  /** What user activity does to a response being generated (default: interrupts it). */
  activityHandling?: 'START_OF_ACTIVITY_INTERRUPTS' | 'NO_INTERRUPTION';
}

/** Session resumption: `handle` continues an earlier provider session; `transparent` is Vertex-only. */
export interface SessionResumptionConfig {
  handle?: string;
  transparent?: boolean;
}

/** Sliding-window compression of a long live session's context. */
export interface ContextWindowCompressionConfig {
  triggerTokens?: number;
  slidingWindow?: { targetTokens?: number };
}

/** Let the model decide not to answer audio that is not meant for it. */
export interface ProactivityConfig {
  proactiveAudio?: boolean;
}

/**
 * Settings of one live connection, built by the runner from `RunConfig` (names follow Python
 * ADK's `RunConfig` and Gemini's `LiveConnectConfig`). Carried on {@link LlmRequest.liveConnectConfig}.
 */
export interface LiveConnectConfig {
  /** `AUDIO` or `TEXT` (one of them; providers refuse both at once). Default: provider's. */
  responseModalities?: Array<'AUDIO' | 'TEXT'>;
  speechConfig?: SpeechConfig;
  inputAudioTranscription?: AudioTranscriptionConfig;
  outputAudioTranscription?: AudioTranscriptionConfig;
  realtimeInputConfig?: RealtimeInputConfig;
  sessionResumption?: SessionResumptionConfig;
  contextWindowCompression?: ContextWindowCompressionConfig;
  proactivity?: ProactivityConfig;
  enableAffectiveDialog?: boolean;
}

/** A realtime input: a media chunk (PCM audio, JPEG frame) or a manual activity signal. */
export type LiveRealtimeInput = { blob: Blob } | { activityStart: true } | { activityEnd: true };

/** Per-connection options of {@link Model.connectLive}. */
export interface LiveConnectOptions {
  /** Aborts the connection attempt and, later, closes the open connection. */
  signal?: AbortSignal | undefined;
}

/**
 * One open bidirectional connection to a live model (Gemini Live, OpenAI Realtime).
 *
 * The runner sends the session's history once (`sendHistory`), then user content and realtime
 * input as they arrive, and tool results as `functionResponse` parts through `sendContent`;
 * it reads `receive()` until the connection closes. Responses use the {@link LlmResponse} fields:
 * `partial: true` for audio and text deltas, `inputTranscription` / `outputTranscription`,
 * `interrupted` (barge-in), `turnComplete`, `usageMetadata` (per turn), function calls as
 * `content.parts[].functionCall`, `liveSessionResumptionUpdate`, `goAway`.
 *
 * Errors: a failed connect or a broken connection throws typed `ModelApiError`s from `receive()`
 * (a server close with an error code, a malformed frame, a timeout). `close()` is idempotent and
 * leaves no socket or timer open.
 */
export interface LiveConnection {
  /** Send earlier turns (the conversation so far) without asking for a response. */
  sendHistory(history: readonly Content[]): Promise<void>;
  /**
   * Send a whole turn: user text (the model answers), or `functionResponse` parts answering the
   * model's function calls (sent as the provider's tool response).
   */
  sendContent(content: Content): Promise<void>;
  /** Send a realtime input: an audio / video chunk, or an activity start / end signal. */
  sendRealtime(input: LiveRealtimeInput): Promise<void>;
  /** The model's responses, in order, until the connection closes. Read by one consumer. */
  receive(): AsyncIterable<LlmResponse>;
  /** Close the connection (idempotent). */
  close(): Promise<void>;
}
