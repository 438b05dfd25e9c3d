import diagnosticsChannel from 'node:diagnostics_channel';

import { jobChannelNames } from '../diagnostics/job-channels';

/** A job changed somewhere (enqueued, started, finished, cancelled, ...). */
export interface JobChange {
  /** The job's app, when known: the streams of other apps need not look. */
  appName: string | undefined;
}

/**
 * Job changes shared between the processes of one deployment (server instances and workers), on
 * the engine the deployment already has: PostgreSQL `LISTEN`/`NOTIFY`
 * (`PostgresJobChangeFeed` of `@adk/jobs/graphile`) or Redis pub/sub (`RedisJobChangeFeed` of `@adk/jobs/bullmq`). A server's job
 * streams wake on them instead of listing the jobs again every second. Delivery is best effort
 * (a change sent while a process is reconnecting is not seen by it): a stream keeps a slow poll
 * as a fallback. A process does not receive its own changes (it sees them in process).
 */
export interface JobChangeFeed {
  /** Tell the other processes that a job changed; never throws (best effort). */
  publish(change: JobChange): void;
  /**
   * Call `listener` on each change published by another process; returns its removal. A feed may
   * listen only while it has subscribers: when it starts listening it tells them of a change of an
   * unknown app (`appName: undefined`), since changes made before that moment were not heard.
   */
  subscribe(listener: (change: JobChange) => void): () => void;
  /** Stop listening and close the connection. */
  close(): Promise<void>;
}

/**
 * Publish every job change of this process (the `adk:job:*` diagnostics channels: enqueues,
 * worker attempts) on `feed`, until the returned function is called. Cancels publish nothing on
 * those channels: publish them yourself.
 */
export function publishJobChanges(feed: JobChangeFeed): () => void {
  const onMessage = (message: unknown): void => {
    const appName = (message as { job?: { appName?: unknown } } | undefined)?.job?.appName;
    feed.publish({ appName: typeof appName === 'string' ? appName : undefined });
  };
  for (const name of Object.values(jobChannelNames)) diagnosticsChannel.subscribe(name, onMessage);
  return () => {
    for (const name of Object.values(jobChannelNames))
      diagnosticsChannel.unsubscribe(name, onMessage);
  };
}

/**
 * Tell `listeners` that some job of an unknown app may have changed (a feed that has just started
 * listening, and so has not heard what came before).
 */
export function tellUnknownChange(listeners: Iterable<(change: JobChange) => void>): void {
  for (const listener of listeners) listener({ appName: undefined });
}

/** The wire payload of a change: `{"a": appName}` (`{}` for an unknown app). */
export function encodeJobChange(change: JobChange): string {
  return JSON.stringify(change.appName === undefined ? {} : { a: change.appName });
}

/** A payload back as a change; anything unreadable is a change of an unknown app. */
export function decodeJobChange(payload: string | undefined): JobChange {
  try {
    const value = JSON.parse(payload ?? '{}') as { a?: unknown };
    return { appName: typeof value.a === 'string' ? value.a : undefined };
  } catch {
    return { appName: undefined };
  }
}
