import { InvalidArgumentError } from '../errors/invalid-argument-error';
import type { GenerateContentConfig, LiveConnectConfig } from '../models';

/** How model output reaches the caller. `sse`: streamed chunks surface as partial events. */
export type StreamingMode = 'none' | 'sse';

/** Per-run settings, given to `Runner.run({ runConfig })`. */
export interface RunConfig {
  /** `none` (default): one event per model response. `sse`: partial events while the model streams. */
  streamingMode: StreamingMode;
  /**
   * Maximum number of model calls in one invocation, counted across every agent of the tree
   * (default 500). When the limit is reached the run ends with an error event of code
   * `MAX_LLM_CALLS_EXCEEDED`. Every model step counts, including one a `beforeModel` callback
   * answers instead of the model (so a callback cannot loop forever); retries granted by
   * `onModelError` do not. `0` or `Infinity` disables the limit.
   */
  maxLlmCalls: number;
  /** Generation settings that override the agents' own `generateContentConfig`, key by key. */
  generateContentConfig?: GenerateContentConfig;
  /**
   * Timeout of one tool call in milliseconds, for tools and agents that set none (`timeoutMs`,
   * `toolTimeoutMs`). Default 5 minutes (`DEFAULT_TOOL_TIMEOUT_MS`); `0` or `Infinity`: no limit.
   * A call that runs longer has its signal aborted and answers the model with `TOOL_TIMEOUT`.
   */
  toolTimeoutMs?: number;

  // Live runs (`Runner.runLive`) only; names follow Python ADK's `RunConfig`.
  /** Output modality of a live run: `['AUDIO']` (default for voice models) or `['TEXT']`. */
  responseModalities?: LiveConnectConfig['responseModalities'];
  /** Voice and language of spoken output. */
  speechConfig?: LiveConnectConfig['speechConfig'];
  /** Transcribe the user's audio (`{}` turns it on); stored in the session as text. */
  inputAudioTranscription?: LiveConnectConfig['inputAudioTranscription'];
  /** Transcribe the model's audio (`{}` turns it on); stored in the session as text. */
  outputAudioTranscription?: LiveConnectConfig['outputAudioTranscription'];
  /** Voice activity detection: automatic (default) or driven by `activityStart` / `activityEnd`. */
  realtimeInputConfig?: LiveConnectConfig['realtimeInputConfig'];
  /**
   * Session resumption: with it set, the runner keeps the provider's latest resumption handle in
   * the session and a dropped connection (or a later `runLive` on the same session) resumes.
   */
  sessionResumption?: LiveConnectConfig['sessionResumption'];
  /** Sliding-window compression of a long live session's context. */
  contextWindowCompression?: LiveConnectConfig['contextWindowCompression'];
  /** Let the model ignore audio not meant for it. */
  proactivity?: LiveConnectConfig['proactivity'];
  /** Let the model adapt its tone to the user's (Gemini native audio). */
  enableAffectiveDialog?: boolean;
  /**
   * Store live audio (input and output) as artifacts, referenced from the session's events.
   * Default `false`: audio chunks are partial events, shown to the caller and never stored.
   */
  saveLiveBlob?: boolean;
}

/** The {@link RunConfig} members that only live runs read, copied as given by {@link createRunConfig}. */
export const LIVE_RUN_CONFIG_KEYS = [
  'responseModalities',
  'speechConfig',
  'inputAudioTranscription',
  'outputAudioTranscription',
  'realtimeInputConfig',
  'sessionResumption',
  'contextWindowCompression',
  'proactivity',
  'enableAffectiveDialog',
  'saveLiveBlob',
] as const satisfies ReadonlyArray<keyof RunConfig>;

/** Default `maxLlmCalls`. */
export const DEFAULT_MAX_LLM_CALLS = 500;

/**
 * A complete {@link RunConfig} from a partial one, with the defaults applied and checked.
 *
 * @throws InvalidArgumentError for an unknown streaming mode or a negative / non-numeric limit.
 */
export function createRunConfig(config: Partial<RunConfig> = {}): RunConfig {
  const streamingMode = config.streamingMode ?? 'none';
  if (streamingMode !== 'none' && streamingMode !== 'sse') {
    throw new InvalidArgumentError({
      message: `Unknown streamingMode "${String(streamingMode)}"; use 'none' or 'sse'.`,
      argument: 'runConfig.streamingMode',
    });
  }
  const maxLlmCalls = config.maxLlmCalls ?? DEFAULT_MAX_LLM_CALLS;
  if (typeof maxLlmCalls !== 'number' || Number.isNaN(maxLlmCalls) || maxLlmCalls < 0) {
    throw new InvalidArgumentError({
      message: `runConfig.maxLlmCalls must be a number >= 0 (0 means unlimited), got ${String(maxLlmCalls)}.`,
      argument: 'runConfig.maxLlmCalls',
    });
  }
  const runConfig: RunConfig = { streamingMode, maxLlmCalls };
  if (config.generateContentConfig) runConfig.generateContentConfig = config.generateContentConfig;
  if (config.toolTimeoutMs !== undefined) {
    if (!isToolTimeout(config.toolTimeoutMs)) {
      throw new InvalidArgumentError({
        message: `runConfig.toolTimeoutMs must be a number >= 0 (0 means no limit), got ${String(config.toolTimeoutMs)}.`,
        argument: 'runConfig.toolTimeoutMs',
      });
    }
    runConfig.toolTimeoutMs = config.toolTimeoutMs;
  }
  for (const key of LIVE_RUN_CONFIG_KEYS) {
    if (config[key] !== undefined)
      (runConfig as unknown as Record<string, unknown>)[key] = config[key];
  }
  return runConfig;
}

/** Whether `value` is a valid timeout setting: a number >= 0 (`0` and `Infinity` mean none). */
export function isToolTimeout(value: unknown): value is number {
  return typeof value === 'number' && !Number.isNaN(value) && value >= 0;
}
