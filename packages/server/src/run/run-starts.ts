import { subscribe } from '@adk/core';

/**
 * Tells when a run of `@adk/core`'s `Runner` has started: its `runStart` lifecycle message, which
 * the runner publishes once it has read the session (so the session exists), before it stores the
 * user's message. The run routes wait for it instead of reading the session themselves first (see
 * `confirmSession` in `run-routes.ts`): one database round trip less per turn.
 */
export class RunStarts {
  readonly #waiting = new Map<string, () => void>();
  #unsubscribe: (() => void) | undefined;

  /**
   * Resolve `started` when the run of `invocationId` starts; `cancel` stops waiting (always call
   * one or the other being done: a waiting entry is kept until then).
   */
  wait(invocationId: string): { started: Promise<void>; cancel(): void } {
    this.#unsubscribe ??= subscribe('runStart', (message) => {
      const resolve = this.#waiting.get(message.invocationId);
      if (resolve === undefined) return;
      this.#waiting.delete(message.invocationId);
      resolve();
    });
    const started = new Promise<void>((resolve) => this.#waiting.set(invocationId, resolve));
    return { started, cancel: () => this.#waiting.delete(invocationId) };
  }

  /** Stop listening (the server closes). */
  close(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#waiting.clear();
  }
}
