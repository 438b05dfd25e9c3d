/**
 * What every benchmarked framework provides: the same agent (one LLM agent with one tool, driven
 * by a zero-latency scripted model) behind the same three calls, with in-memory sessions.
 */
export interface FrameworkHarness {
  /** Stable id used in results (`adk-ts`, `google-adk` or `floor`). */
  readonly id: FrameworkId;
  /** Create an empty session in the harness's in-memory session service. */
  createSession(userId: string, sessionId: string): Promise<void>;
  /** Delete a session (the settling turns leave the store as they found it). */
  deleteSession(userId: string, sessionId: string): Promise<void>;
  /**
   * Run one user turn to completion: model call 1 returns a function call, the tool runs, model
   * call 2 returns text. Resolves with the final text the agent produced.
   */
  runTurn(userId: string, sessionId: string, text: string): Promise<string>;
  /** How many times the tool ran since the harness was built (to check the scenario really ran). */
  readonly toolCalls: number;
  /** Release the runner. */
  close(): Promise<void>;
}

/**
 * The frameworks compared; `floor` is the ideal floor, a hand-written loop doing the same model
 * calls, tool call and appends with nothing else (`frameworks/floor.ts`); `contract-floor` is
 * that loop plus the work core's contracts require of a turn (`frameworks/contract-floor.ts`).
 */
export type FrameworkId = 'adk-ts' | 'google-adk' | 'floor' | 'contract-floor';

/** Builds a fresh harness (new runner, new session service, new agent). */
export type HarnessFactory = () => Promise<FrameworkHarness>;
