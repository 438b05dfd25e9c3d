/**
 * Runs on one session take turns: each key (one session) has at most one holder; later callers
 * wait in arrival order. A key with a holder and nobody waiting costs one `Map` entry.
 */
export class SessionTurns {
  /** Key → callers waiting for it (`undefined`: held, nobody waiting). Absent: free. */
  readonly #held = new Map<string, Array<(acquired: boolean) => void> | undefined>();

  /**
   * Take the turn on `key`: `true` at once when it is free, otherwise a promise that resolves to
   * `true` when the turn comes, or to `false` when `signal` aborts first (the caller then never
   * holds the turn and must not call {@link leave}).
   */
  enter(key: string, signal: AbortSignal | undefined): true | Promise<boolean> {
    if (!this.#held.has(key)) {
      this.#held.set(key, undefined);
      return true;
    }
    let waiting = this.#held.get(key);
    if (waiting === undefined) {
      waiting = [];
      this.#held.set(key, waiting);
    }
    const queue = waiting;
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const onAbort = (): void => {
        const index = queue.indexOf(wake);
        if (index !== -1) queue.splice(index, 1);
        resolve(false);
      };
      const wake = (acquired: boolean): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve(acquired);
      };
      queue.push(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Give the turn on `key` to the next waiting caller, or free it. */
  leave(key: string): void {
    const next = this.#held.get(key)?.shift();
    if (next === undefined) this.#held.delete(key);
    else next(true);
  }
}
