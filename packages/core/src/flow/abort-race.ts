/**
 * {@link unlessAborted} for a loop that awaits many promises under one signal (a live run's
 * receiver reads a promise per audio frame): one abort listener for the loop's lifetime instead of
 * adding and removing one per promise. `race(promise)` resolves with the promise's value, or
 * `undefined` as soon as the signal aborts (the promise's rejection then ignored); one race at a
 * time. Call `dispose()` when the loop ends.
 */
export class AbortRace {
  #current: ((value: undefined) => void) | undefined;
  readonly #onAbort = (): void => {
    const resolve = this.#current;
    this.#current = undefined;
    resolve?.(undefined);
  };

  constructor(private readonly signal: AbortSignal) {
    signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  race<T>(promise: Promise<T>): Promise<T | undefined> {
    if (this.signal.aborted) {
      promise.catch(() => undefined);
      return Promise.resolve(undefined);
    }
    return new Promise<T | undefined>((resolve, reject) => {
      this.#current = resolve;
      promise.then(
        (value) => {
          this.#current = undefined;
          resolve(value);
        },
        (error: unknown) => {
          this.#current = undefined;
          if (this.signal.aborted) resolve(undefined);
          else reject(error);
        },
      );
    });
  }

  dispose(): void {
    this.#current = undefined;
    this.signal.removeEventListener('abort', this.#onAbort);
  }
}
