import { subscribe, type UsageMetadata } from '@adk/core';

/** A model call of an eval run that threw (a replay miss, a missing key, a provider error). */
export interface FailedModelCall {
  /** The error's `code` when it has one (`REPLAY_MISS`, `MODEL_HTTP_ERROR`...), else `MODEL_ERROR`. */
  code: string;
  message: string;
}

/** What the model calls of one invocation (one turn) of an eval run cost. */
export interface InvocationModelCalls {
  /** Model calls made (retries included). */
  calls: number;
  /** Summed durations of the calls, in ms. */
  durationMs: number;
  /** Token counts summed over the calls that reported them; absent when none did. */
  promptTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  failures: FailedModelCall[];
}

interface Watched {
  byInvocation: Map<string, InvocationModelCalls>;
}

const add = (total: number | undefined, count: number | undefined) =>
  count === undefined ? total : (total ?? 0) + count;

/**
 * Watches the model calls of eval sessions through core's diagnostics channels (`adk:model:*`):
 * per invocation, the calls made, their time and tokens, and the calls that threw. Only watched
 * sessions are kept, and each is forgotten when its case ends, so memory stays bounded by the
 * cases in flight.
 */
export class ModelCallLog {
  readonly #sessions = new Map<string, Watched>();
  readonly #spans = new Map<string, { session: Watched; invocationId: string }>();
  #unsubscribe: (() => void) | undefined;

  /** Start recording the calls of `sessionId` of `appName`. */
  watch(appName: string, sessionId: string): void {
    this.#sessions.set(`${appName}\u0000${sessionId}`, { byInvocation: new Map() });
    this.#unsubscribe ??= this.#listen();
  }

  /** The calls of one invocation of a watched session (zero calls when it made none). */
  invocation(appName: string, sessionId: string, invocationId: string): InvocationModelCalls {
    const watched = this.#sessions.get(`${appName}\u0000${sessionId}`);
    return watched?.byInvocation.get(invocationId) ?? { calls: 0, durationMs: 0, failures: [] };
  }

  /** Stop recording `sessionId`; the last watched session unsubscribes from the channels. */
  forget(appName: string, sessionId: string): void {
    const watched = this.#sessions.get(`${appName}\u0000${sessionId}`);
    this.#sessions.delete(`${appName}\u0000${sessionId}`);
    for (const [span, entry] of this.#spans)
      if (entry.session === watched) this.#spans.delete(span);
    if (this.#sessions.size === 0) {
      this.#unsubscribe?.();
      this.#unsubscribe = undefined;
    }
  }

  #entry(span: string): InvocationModelCalls | undefined {
    const found = this.#spans.get(span);
    if (!found) return undefined;
    let calls = found.session.byInvocation.get(found.invocationId);
    if (!calls) {
      calls = { calls: 0, durationMs: 0, failures: [] };
      found.session.byInvocation.set(found.invocationId, calls);
    }
    return calls;
  }

  #listen(): () => void {
    const stops = [
      subscribe('modelCallStart', (message) => {
        const session = this.#sessions.get(`${message.appName}\u0000${message.sessionId}`);
        if (session)
          this.#spans.set(message.spanId, { session, invocationId: message.invocationId });
      }),
      subscribe('modelCallEnd', (message) => {
        const entry = this.#entry(message.spanId);
        this.#spans.delete(message.spanId);
        if (!entry) return;
        entry.calls += 1;
        entry.durationMs += message.durationMs;
        const usage: UsageMetadata | undefined = message.usage;
        entry.promptTokens = add(entry.promptTokens, usage?.promptTokenCount);
        entry.outputTokens = add(entry.outputTokens, usage?.candidatesTokenCount);
        entry.totalTokens = add(entry.totalTokens, usage?.totalTokenCount);
      }),
      subscribe('modelCallError', (message) => {
        const entry = this.#entry(message.spanId);
        this.#spans.delete(message.spanId);
        if (!entry) return;
        entry.calls += 1;
        entry.durationMs += message.durationMs;
        const error = message.error;
        // A call cut short (the run aborted, the reader stopped) is no failure of the model.
        if (!(error instanceof Error) || error.name === 'AbortError') return;
        const code = (error as { code?: unknown }).code;
        entry.failures.push({
          code: typeof code === 'string' ? code : 'MODEL_ERROR',
          message: error.message,
        });
      }),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }
}
