/** A timer handle of a {@link JobClock}. */
export type TimerHandle = unknown;

/**
 * Time as the job stores, the worker and the scheduler see it. Inject `ManualClock` from
 * `@adk/jobs/testing` in tests to move time by hand.
 */
export interface JobClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Call `callback` once after `ms` milliseconds. */
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The real clock: `Date.now` and Node's timers (unref'd, so they never keep a process alive). */
export const systemClock: JobClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    timer.unref?.();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
