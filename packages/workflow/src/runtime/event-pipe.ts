/**
 * @internal A single-consumer queue joining concurrently running nodes to the workflow's event
 * generator: producers push and may wait until the consumer has taken (and stored) their item.
 */
export class EventPipe<T> {
  private readonly items: T[] = [];
  private waiter: (() => void) | undefined;

  push(item: T): void {
    this.items.push(item);
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  /** The next item, waiting for one when the queue is empty. */
  async next(): Promise<T> {
    while (this.items.length === 0) {
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
    return this.items.shift() as T;
  }

  /** The next item, when {@link size} is not 0. */
  take(): T {
    return this.items.shift() as T;
  }

  get size(): number {
    return this.items.length;
  }
}
