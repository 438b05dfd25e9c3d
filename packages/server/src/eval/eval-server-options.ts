import type { EvalSetResultsStore, EvalSetsStore, MetricRegistry, UserSimulator } from '@adk/eval';
import type { Model } from '@adk/core';

/** Evaluation settings of the ADK API server (the web UI's Eval tab). */
export interface EvalServerOptions {
  /** Eval sets (default: in memory). */
  sets?: EvalSetsStore;
  /** Eval results (default: in memory). */
  results?: EvalSetResultsStore;
  /** Metrics offered and computed (default: Python ADK's built-in ones). */
  registry?: MetricRegistry;
  /** The judge of LLM-judged metrics (default: the core model registry, by the criterion's name). */
  judgeModel?: Model | ((name: string) => Model);
  /** Plays the user of conversation-scenario cases. */
  userSimulator?: UserSimulator;
  /** Case runs in flight at once per run request (default 4). */
  concurrency?: number;
}
