import diagnosticsChannel from 'node:diagnostics_channel';

import { SSE_KEEP_ALIVE, sseFrame } from '../run/sse';

/**
 * The `@adk/jobs` lifecycle channels, read by name and shape so the server does not depend on
 * `@adk/jobs` (as `@adk/telemetry` does). Each message carries the `job`. A cancel publishes
 * nothing: the cancel route wakes the watchers itself.
 */
const JOB_CHANNELS = [
  'adk:job:enqueued',
  'adk:job:started',
  'adk:job:completed',
  'adk:job:failed',
  'adk:job:retrying',
  'adk:job:dead',
  'adk:job:released',
] as const;

type Wake = (appName: string | undefined) => void;

/**
 * Job changes made by other processes (server instances, workers), as `@adk/jobs`' `JobChangeFeed`
 * delivers them (PostgreSQL `LISTEN`/`NOTIFY`, Redis pub/sub); read by shape, as the channels are.
 */
export interface RemoteJobChanges {
  /** Call `listener` on each change made by another process; returns its removal. */
  subscribe(listener: (change: { appName: string | undefined }) => void): () => void;
}

/**
 * Wakes the job streams of the server when a job changes in this process (an in-process worker,
 * or an enqueue or cancel through the routes). Subscribed to the job channels only while a stream
 * is open, so a server nobody watches costs the jobs nothing (their channels publish only to
 * subscribers).
 */
export class JobWatchHub {
  readonly #wakes = new Set<Wake>();
  readonly #remote: RemoteJobChanges | undefined;
  #unsubscribeRemote: (() => void) | undefined;
  readonly #onMessage = (message: unknown): void => {
    const appName = (message as { job?: { appName?: unknown } } | undefined)?.job?.appName;
    this.notify(typeof appName === 'string' ? appName : undefined);
  };

  /** `remote`: changes made by other processes, which wake the streams too. */
  constructor(remote?: RemoteJobChanges) {
    this.#remote = remote;
  }

  /** Tell the streams that a job of `appName` (or of an unknown app) changed. */
  notify(appName: string | undefined): void {
    for (const wake of this.#wakes) wake(appName);
  }

  /** Add a stream's wake-up; returns its removal. */
  add(wake: Wake): () => void {
    if (this.#wakes.size === 0) {
      for (const name of JOB_CHANNELS) diagnosticsChannel.subscribe(name, this.#onMessage);
      this.#unsubscribeRemote = this.#remote?.subscribe((change) => this.notify(change.appName));
    }
    this.#wakes.add(wake);
    return () => {
      if (!this.#wakes.delete(wake) || this.#wakes.size > 0) return;
      for (const name of JOB_CHANNELS) diagnosticsChannel.unsubscribe(name, this.#onMessage);
      this.#unsubscribeRemote?.();
      this.#unsubscribeRemote = undefined;
    };
  }
}

/** One frame of a job stream. */
export interface JobStreamFrame {
  /** True on the first frame: `jobs` is the whole list, and the client drops what it had. */
  reset: boolean;
  /** Jobs that are new or changed since the previous frame (all of them when `reset`). */
  jobs: unknown[];
  /** Ids of jobs that are gone (pruned) since the previous frame. */
  removed: string[];
}

/** Options of {@link jobStream}. */
export interface JobStreamOptions {
  appName: string;
  /** The jobs to show now (the user's jobs of the app). */
  list: () => Promise<readonly { id: string }[]>;
  /** The frame's name of the changed items (default `jobs`; the memory stream says `memories`). */
  key?: string;
  hub: JobWatchHub;
  /**
   * Rescan this often, for changes made in other processes (a worker elsewhere) that no
   * {@link RemoteJobChanges} announced.
   */
  intervalMs: number;
  /** SSE comment this often, so proxies keep the stream open (0: never). */
  keepAliveMs: number;
}

/**
 * A `text/event-stream` of a user's jobs (or of any list of items with ids, named by `key`): the
 * whole list first, then each change as it happens.
 * A scan lists the jobs and sends those whose JSON differs from the last one sent; scans run when
 * the hub says a job of the app changed (at once, in this process) and every `intervalMs`, one at
 * a time. A scan that fails (the store is down) sends `{ error }` and ends the stream.
 */
export function jobStream(options: JobStreamOptions): ReadableStream<Uint8Array> {
  const sent = new Map<string, string>();
  let closed = false;
  let scanning: Promise<void> | undefined;
  let again = false;
  let first = true;
  let timer: NodeJS.Timeout | undefined;
  let keepAlive: NodeJS.Timeout | undefined;
  let removeWake: (() => void) | undefined;
  const stop = () => {
    closed = true;
    clearInterval(timer);
    clearInterval(keepAlive);
    removeWake?.();
  };
  return new ReadableStream<Uint8Array>({
    start(stream) {
      const push = (bytes: Uint8Array) => {
        try {
          stream.enqueue(bytes);
        } catch {
          stop(); // the client is gone
        }
      };
      const scanOnce = async () => {
        const jobs = await options.list();
        const changed: unknown[] = [];
        const present = new Set<string>();
        for (const job of jobs) {
          present.add(job.id);
          const text = JSON.stringify(job);
          if (sent.get(job.id) === text) continue;
          sent.set(job.id, text);
          changed.push(job);
        }
        const removed = [...sent.keys()].filter((id) => !present.has(id));
        for (const id of removed) sent.delete(id);
        if (closed || (!first && changed.length === 0 && removed.length === 0)) return;
        const frame = { reset: first, [options.key ?? 'jobs']: changed, removed };
        first = false;
        push(sseFrame(frame));
      };
      const scan = (): Promise<void> => {
        if (closed) return Promise.resolve();
        if (scanning) {
          again = true;
          return scanning;
        }
        scanning = (async () => {
          do {
            again = false;
            await scanOnce();
          } while (again && !closed);
        })()
          .catch((error: unknown) => {
            if (closed) return;
            // The store failed: say so in a last frame, and end the stream.
            push(sseFrame({ error: error instanceof Error ? error.message : String(error) }));
            stop();
            stream.close();
          })
          .finally(() => {
            scanning = undefined;
          });
        return scanning;
      };
      removeWake = options.hub.add((appName) => {
        if (appName === undefined || appName === options.appName) void scan();
      });
      timer = setInterval(() => void scan(), options.intervalMs);
      timer.unref();
      if (options.keepAliveMs > 0) {
        keepAlive = setInterval(() => push(SSE_KEEP_ALIVE), options.keepAliveMs);
        keepAlive.unref();
      }
      return scan();
    },
    cancel() {
      stop();
    },
  });
}
