import { InvalidArgumentError, type Runner } from '@adk/core';

import type { JobClock } from '../clock/job-clock';
import type { Job } from '../store/job';
import type { JobStore } from '../store/job-store';
import { exponentialBackoff, type Backoff, type BackoffOptions } from './backoff';

/** Runners by app name: a record, a list (keyed by `runner.appName`), or a lookup function. */
export type JobRunners =
  Readonly<Record<string, Runner>> | readonly Runner[] | ((appName: string) => Runner | undefined);

/** Options of {@link JobWorker}. */
export interface JobWorkerOptions {
  store: JobStore;
  /** The runner for each job's `appName`. */
  runners: JobRunners;
  /** Queues this worker serves and how many jobs of each it runs at once (default `{ default: 1 }`). */
  queues?: Readonly<Record<string, number>>;
  /** This worker's id, owner of its leases (default: a random one). */
  workerId?: string;
  /** Lease length in ms (default 60 s); renewed every third of it while a job runs. */
  leaseMs?: number;
  /** How often `start()` polls for due jobs, in ms (default 1 s). */
  pollIntervalMs?: number;
  /** Delay before a retry: a function of the failed attempt, or exponential-backoff options. */
  backoff?: Backoff | BackoffOptions;
  /** Time source and timers (default: the system clock). */
  clock?: JobClock;
  /**
   * Called when the store fails while the worker claims (no job), reports an outcome or renews a
   * lease (the job then runs again after its lease expires). Default: `console.error`.
   */
  onError?: (error: unknown, job: Job | undefined) => void;
}

/** Worker options with the defaults applied. */
export interface ResolvedWorkerOptions {
  queues: Map<string, number>;
  leaseMs: number;
  pollIntervalMs: number;
  backoff: Backoff;
  resolveRunner: (appName: string) => Runner | undefined;
}

function positive(value: number, argument: string): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new InvalidArgumentError({ argument, message: `${argument} must be a positive number.` });
  return value;
}

function runnerLookup(runners: JobRunners): (appName: string) => Runner | undefined {
  if (typeof runners === 'function') return runners;
  if (Array.isArray(runners)) {
    const byApp = new Map((runners as readonly Runner[]).map((runner) => [runner.appName, runner]));
    return (appName) => byApp.get(appName);
  }
  const record = runners as Readonly<Record<string, Runner>>;
  return (appName) => (Object.hasOwn(record, appName) ? record[appName] : undefined);
}

/** Apply defaults and check the numbers. @throws InvalidArgumentError */
export function resolveWorkerOptions(options: JobWorkerOptions): ResolvedWorkerOptions {
  if (!options.store)
    throw new InvalidArgumentError({ argument: 'store', message: 'store is required.' });
  if (!options.runners)
    throw new InvalidArgumentError({ argument: 'runners', message: 'runners is required.' });
  const queues = new Map(Object.entries(options.queues ?? { default: 1 }));
  if (queues.size === 0)
    throw new InvalidArgumentError({ argument: 'queues', message: 'Give at least one queue.' });
  for (const [queue, concurrency] of queues) {
    if (!Number.isSafeInteger(concurrency) || concurrency < 1)
      throw new InvalidArgumentError({
        argument: 'queues',
        message: `The concurrency of queue "${queue}" must be an integer of at least 1.`,
      });
  }
  const backoff = options.backoff;
  return {
    queues,
    leaseMs: positive(options.leaseMs ?? 60_000, 'leaseMs'),
    pollIntervalMs: positive(options.pollIntervalMs ?? 1000, 'pollIntervalMs'),
    backoff: typeof backoff === 'function' ? backoff : exponentialBackoff(backoff),
    resolveRunner: runnerLookup(options.runners),
  };
}
