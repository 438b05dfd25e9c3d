import type { Event, EventCompaction } from '../events';
import type { Model } from '../models';

/** What a {@link ContextCompressor} is given before a model call. */
export interface CompactionRequest {
  /** The session's events, oldest first (earlier compactions included). */
  events: readonly Event[];
  /** The agent about to call its model. */
  agentName: string;
  /** The agent's branch; unset on the main line. */
  branch?: string;
  /** Aborted when the run is cancelled. */
  signal?: AbortSignal;
  /** Resolves a model name (used by compressors configured with a model name). */
  resolveModel?: (name: string) => Model;
}

/**
 * A strategy that keeps an agent's context small. Before each model call the flow asks the
 * agent's compressor whether older history should be compacted; when it returns a compaction, the
 * flow records it as an event (`actions.compaction`) and {@link buildContents} shows its summary
 * in place of the events it covers. The decision is recorded once, so it is auditable in the
 * session and never recomputed on later turns.
 *
 * A compaction is history, not a per-agent view: every agent that can see the compaction event
 * (same branch, or a descendant branch; every agent on the main line) sees the summary in place of
 * the events it covers.
 *
 * Built in: {@link SlidingWindowCompressor}, {@link TruncateCompressor},
 * {@link TokenBudgetCompressor} and {@link SummarizeCompressor}.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({
 *   name: 'support', model: 'gemini-2.5-flash',
 *   contextCompressor: new TokenBudgetCompressor({ maxTokens: 8000 }),
 * });
 * ```
 */
export interface ContextCompressor {
  /** A short name, for diagnostics. */
  readonly name: string;
  /** The range to compact now and its summary, or `undefined` to leave the history as it is. */
  compact(request: CompactionRequest): Promise<EventCompaction | undefined>;
}
