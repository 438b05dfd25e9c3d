import { InvalidArgumentError } from '../errors/invalid-argument-error';
import type { GenerateContentConfig } from '../models';

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
}

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
  return runConfig;
}

/** Whether `value` is a valid timeout setting: a number >= 0 (`0` and `Infinity` mean none). */
export function isToolTimeout(value: unknown): value is number {
  return typeof value === 'number' && !Number.isNaN(value) && value >= 0;
}
