/**
 * Runs tasks keyed by an object one after the other, in call order; tasks of different keys run
 * concurrently. A failed task does not stop the ones queued after it. Keys are held weakly.
 */
export class CallOrderQueue<K extends object> {
  readonly #tails = new WeakMap<K, Promise<unknown>>();

  /** Run `task` after every task queued earlier for `key` has settled. */
  run<T>(key: K, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key);
    const result = previous ? previous.then(task, task) : task();
    this.#tails.set(key, result);
    const settle = (): void => {
      if (this.#tails.get(key) === result) this.#tails.delete(key);
    };
    result.then(settle, settle);
    return result;
  }
}
