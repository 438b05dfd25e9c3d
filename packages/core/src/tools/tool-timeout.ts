import { ToolTimeoutError } from '../errors/tool-timeout-error';
import type { Tool } from './tool';

/**
 * How long one tool call may run when neither the tool, its agent nor the run sets a timeout:
 * 5 minutes. Long enough for slow APIs and agents used as tools, short enough that a hung call
 * cannot hold a session (and its queued turns) forever.
 */
export const DEFAULT_TOOL_TIMEOUT_MS = 300_000;

/**
 * The timeout of one call of `tool`, in milliseconds: the tool's own `timeoutMs`, else the agent's
 * `toolTimeoutMs`, else the run's `RunConfig.toolTimeoutMs`, else {@link DEFAULT_TOOL_TIMEOUT_MS}.
 * `undefined` when the chosen value is `0` or `Infinity` (no timeout).
 */
export function toolTimeoutFor(
  tool: Tool,
  agentTimeoutMs: number | undefined,
  runTimeoutMs: number | undefined,
): number | undefined {
  const timeoutMs = tool.timeoutMs ?? agentTimeoutMs ?? runTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  return timeoutMs > 0 && timeoutMs !== Infinity ? timeoutMs : undefined;
}

/** Whether `value` is a valid timeout setting: a number >= 0 (`0` and `Infinity` mean none). */
export function isToolTimeout(value: unknown): value is number {
  return typeof value === 'number' && !Number.isNaN(value) && value >= 0;
}

/**
 * The deadline of one attempt of a tool call. Its `signal` (created only when the tool reads it) is
 * aborted when the run's signal aborts or when the timeout elapses, with the
 * {@link ToolTimeoutError} as its reason.
 */
export class ToolDeadline {
  #controller: AbortController | undefined;
  #forward: (() => void) | undefined;
  #timedOut: ToolTimeoutError | undefined;

  constructor(
    private readonly runSignal: AbortSignal,
    private readonly toolName: string,
    private readonly timeoutMs: number,
  ) {}

  /** Aborted by the run's cancellation or by the timeout. */
  get signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const controller = new AbortController();
    this.#controller = controller;
    if (this.#timedOut) controller.abort(this.#timedOut);
    else if (this.runSignal.aborted) controller.abort(this.runSignal.reason);
    else {
      this.#forward = () => controller.abort(this.runSignal.reason);
      this.runSignal.addEventListener('abort', this.#forward, { once: true });
    }
    return controller.signal;
  }

  /**
   * `running`'s outcome, or a {@link ToolTimeoutError} rejection when it takes longer than the
   * timeout (the signal is then aborted and a late outcome is ignored).
   */
  race<T>(running: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        const error = new ToolTimeoutError({ toolName: this.toolName, timeoutMs: this.timeoutMs });
        this.#timedOut = error;
        this.#release();
        this.#controller?.abort(error);
        running.catch(() => undefined);
        reject(error);
      }, this.timeoutMs);
      running.then(
        (value) => {
          clearTimeout(timer);
          this.#release();
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          this.#release();
          reject(error);
        },
      );
    });
  }

  /** Stop forwarding the run's abort: no listener piles up on a long run's signal. */
  #release(): void {
    if (this.#forward) this.runSignal.removeEventListener('abort', this.#forward);
    this.#forward = undefined;
  }
}
