import type { JobClock, TimerHandle } from '../clock/job-clock';

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

/**
 * A clock that moves only when told: `advance(ms)` moves time and runs the timers that fall due,
 * in time order. For deterministic tests of stores, workers and schedulers.
 *
 * @example
 * ```ts
 * const clock = new ManualClock(Date.UTC(2026, 0, 1));
 * const store = new InMemoryJobStore({ clock });
 * clock.advance(60_000);
 * ```
 */
export class ManualClock implements JobClock {
  #now: number;
  #timers: Timer[] = [];
  #nextId = 1;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const timer = { id: this.#nextId++, at: this.#now + Math.max(0, ms), callback };
    this.#timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers = this.#timers.filter((timer) => timer.id !== handle);
  }

  /** Number of timers waiting. */
  get pendingTimers(): number {
    return this.#timers.length;
  }

  /** Move time forward by `ms`, running every timer that falls due, earliest first. */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      const due = this.#timers
        .filter((timer) => timer.at <= target)
        .sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((timer) => timer !== due);
      this.#now = Math.max(this.#now, due.at);
      due.callback();
    }
    this.#now = target;
  }

  /** Set the time (forward only), running the timers that fall due. */
  set(time: number): void {
    this.advance(Math.max(0, time - this.#now));
  }
}
