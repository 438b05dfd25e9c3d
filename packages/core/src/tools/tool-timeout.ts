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

/**
 * Timeouts from this length on are watched by one shared timer that checks every
 * {@link SWEEP_INTERVAL_MS}, instead of a timer per call: creating and clearing a timer per tool
 * call costs about 2 µs, a measurable share of a turn, and a call of the default 5 minutes does not
 * need millisecond precision (it ends at most one sweep interval late). Shorter timeouts keep a
 * precise timer of their own.
 */
const SHARED_TIMER_FROM_MS = 5_000;
/** Period of the shared timer while long deadlines are watched. */
const SWEEP_INTERVAL_MS = 250;

/** Deadlines watched by the shared timer. */
const watched = new Set<ToolDeadline>();
let sweeper: ReturnType<typeof setInterval> | undefined;
/** Sweeps in a row that found nothing to watch; the timer stops after a few. */
let idleSweeps = 0;

function watch(deadline: ToolDeadline): void {
  watched.add(deadline);
  idleSweeps = 0;
  // Unref'd: it never keeps a process alive (or delays its exit after the last call); whatever
  // the watched calls wait on (a socket, a child process) does that.
  sweeper ??= setInterval(sweep, SWEEP_INTERVAL_MS).unref();
}

function sweep(): void {
  if (watched.size === 0) {
    // Kept for a few idle ticks so that back-to-back calls do not recreate it each time.
    if (++idleSweeps >= 4 && sweeper !== undefined) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
    return;
  }
  const now = performance.now();
  for (const deadline of watched) deadline.expireIfDue(now);
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
  #expiresAt = 0;
  #reject: ((error: unknown) => void) | undefined;
  #running: Promise<unknown> | undefined;

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
      this.#reject = reject;
      this.#running = running;
      let timer: ReturnType<typeof setTimeout> | undefined;
      if (this.timeoutMs < SHARED_TIMER_FROM_MS) {
        timer = setTimeout(() => this.#expire(), this.timeoutMs);
      } else {
        this.#expiresAt = performance.now() + this.timeoutMs;
        watch(this);
      }
      running.then(
        (value) => {
          if (this.#settle(timer)) resolve(value);
        },
        (error: unknown) => {
          if (this.#settle(timer)) reject(error);
        },
      );
    });
  }

  /** Called by the shared timer: time out when the deadline has passed. */
  expireIfDue(now: number): void {
    if (now >= this.#expiresAt) this.#expire();
  }

  #expire(): void {
    const reject = this.#reject;
    if (reject === undefined) return;
    this.#reject = undefined;
    watched.delete(this);
    const error = new ToolTimeoutError({ toolName: this.toolName, timeoutMs: this.timeoutMs });
    this.#timedOut = error;
    this.#release();
    this.#controller?.abort(error);
    this.#running?.catch(() => undefined);
    reject(error);
  }

  /** The attempt ended: stop watching; false when it had already timed out. */
  #settle(timer: ReturnType<typeof setTimeout> | undefined): boolean {
    if (this.#reject === undefined) return false;
    this.#reject = undefined;
    if (timer !== undefined) clearTimeout(timer);
    else watched.delete(this);
    this.#release();
    return true;
  }

  /** Stop forwarding the run's abort: no listener piles up on a long run's signal. */
  #release(): void {
    if (this.#forward) this.runSignal.removeEventListener('abort', this.#forward);
    this.#forward = undefined;
  }
}
