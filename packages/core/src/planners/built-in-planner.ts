import type { Part } from '../content';
import type { ThinkingConfig, LlmRequest } from '../models';
import type { Planner } from './planner';

/**
 * A planner that relies on the model's own thinking: it sets {@link ThinkingConfig} on every
 * request (replacing any set by the agent or the run, as Python's `BuiltInPlanner` does) and
 * leaves instructions and responses alone. Thoughts come back as parts marked `thought: true`.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({
 *   name: 'solver',
 *   model: 'gemini-2.5-flash',
 *   planner: new BuiltInPlanner({ thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } }),
 * });
 * ```
 */
export class BuiltInPlanner implements Planner {
  readonly thinkingConfig: ThinkingConfig;

  constructor(options: { thinkingConfig: ThinkingConfig }) {
    this.thinkingConfig = { ...options.thinkingConfig };
  }

  /** The request with `config.thinkingConfig` set to this planner's. */
  processRequest(request: LlmRequest): LlmRequest {
    return {
      ...request,
      config: { ...request.config, thinkingConfig: { ...this.thinkingConfig } },
    };
  }

  buildPlanningInstruction(): undefined {
    return undefined;
  }

  processPlanningResponse(_context: unknown, _parts: readonly Part[]): undefined {
    return undefined;
  }
}
