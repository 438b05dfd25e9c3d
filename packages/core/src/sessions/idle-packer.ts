/** What {@link IdlePacker} needs to keep on each item (two fields, so a touch allocates nothing). */
export interface PackableItem {
  /** The packer's tick during which the item was last touched. */
  touchedAtTick: number;
  /** Whether the item is in the packer's set of items to watch. */
  watched: boolean;
}

/** One sweep works for at most this long, then yields to the event loop and goes on. */
const SWEEP_BUDGET_MS = 5;

/**
 * Calls `pack(item)` for every touched item that then goes untouched for `idleMs` to `1.5 * idleMs`.
 *
 * A touch costs two field writes (and a `Set` insertion the first time since the last pack): the
 * clock is a tick counter advanced by one timer every `idleMs / 2`, never read per touch. The
 * timer runs only while some item is watched, is `unref`'d (it never keeps the process alive) and
 * holds the packer weakly (a dropped session service and its sessions are collected, not swept).
 * `pack` must not throw. A sweep packs for
 * at most a few milliseconds at a time, so packing many sessions never stalls the event loop.
 */
export class IdlePacker<T extends PackableItem> {
  readonly #watched = new Set<T>();
  readonly #tickMs: number;
  readonly #pack: (item: T) => void;
  #tick = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(idleMs: number, pack: (item: T) => void) {
    this.#tickMs = Math.max(1, idleMs / 2);
    this.#pack = pack;
  }

  /** `item` was just used: it will be packed once it stays unused for the idle time. */
  touch(item: T): void {
    item.touchedAtTick = this.#tick;
    if (!item.watched) {
      item.watched = true;
      this.#watched.add(item);
      if (this.#timer === undefined) this.#schedule(this.#tickMs, true);
    }
  }

  /** Stop watching `item` (deleted, or just packed by someone else). */
  forget(item: T): void {
    if (!item.watched) return;
    item.watched = false;
    this.#watched.delete(item);
  }

  /** Advance the clock (unless finishing an interrupted sweep) and pack what has been idle. */
  #sweep(advanceClock: boolean): void {
    this.#timer = undefined;
    if (advanceClock) this.#tick++;
    // Touched during tick t: idle for more than (now - t - 1) ticks. Two ticks = `idleMs`.
    const idleBefore = this.#tick - 2;
    const deadline = performance.now() + SWEEP_BUDGET_MS;
    let interrupted = false;
    for (const item of this.#watched) {
      if (item.touchedAtTick >= idleBefore) continue;
      this.forget(item);
      this.#pack(item);
      if (performance.now() > deadline) {
        interrupted = true;
        break;
      }
    }
    // The rest of an interrupted sweep runs at once (same tick); otherwise at the next tick.
    if (this.#watched.size > 0) this.#schedule(interrupted ? 0 : this.#tickMs, !interrupted);
  }

  #schedule(delayMs: number, advanceClock: boolean): void {
    const packer = new WeakRef(this);
    const timer = setTimeout(() => {
      const live = packer.deref();
      if (live !== undefined) live.#sweep(advanceClock);
    }, delayMs);
    timer.unref();
    this.#timer = timer;
  }
}
