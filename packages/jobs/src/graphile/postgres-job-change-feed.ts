import pg from 'pg';

import {
  decodeJobChange,
  encodeJobChange,
  tellUnknownChange,
  type JobChange,
  type JobChangeFeed,
} from '../notify';

/** Options of {@link PostgresJobChangeFeed}. */
export interface PostgresJobChangeFeedOptions {
  /** The database every process of the deployment shares, `postgres://…`. */
  connectionString: string;
  /** The `LISTEN`/`NOTIFY` channel (default `adk_job_changes`); one per deployment on a database. */
  channel?: string;
}

/**
 * A {@link JobChangeFeed} on PostgreSQL `LISTEN`/`NOTIFY`: one connection per process, which
 * sends `pg_notify` for this process's changes (payload `{"a": app}`) and listens on the channel
 * while someone subscribes (a server with no job stream open is sent no notifications, so the
 * changes of a deployment cost each idle instance nothing). Notifications of this connection's own
 * backend are skipped. Once it listens, the subscribers are told of a change of an unknown app (see
 * {@link JobChangeFeed.subscribe}). A lost connection is opened again
 * on the next publish or after a second; changes sent meanwhile are missed (the streams' slow
 * poll catches them).
 */
export class PostgresJobChangeFeed implements JobChangeFeed {
  readonly #connectionString: string;
  readonly #channel: string;
  readonly #listeners = new Set<(change: JobChange) => void>();
  #client: Promise<pg.Client> | undefined;
  /** The connection `#client` resolved to, while it is the current one. */
  #current: pg.Client | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;

  private constructor(options: PostgresJobChangeFeedOptions) {
    this.#connectionString = options.connectionString;
    this.#channel = options.channel ?? 'adk_job_changes';
  }

  /** Connect and listen. */
  static async open(options: PostgresJobChangeFeedOptions): Promise<PostgresJobChangeFeed> {
    const feed = new PostgresJobChangeFeed(options);
    await feed.#connect();
    return feed;
  }

  publish(change: JobChange): void {
    if (this.#closed) return;
    void this.#connect()
      .then((client) =>
        client.query('SELECT pg_notify($1, $2)', [this.#channel, encodeJobChange(change)]),
      )
      .catch(() => undefined);
  }

  subscribe(listener: (change: JobChange) => void): () => void {
    this.#listeners.add(listener);
    if (this.#listeners.size === 1) this.#listen('LISTEN');
    return () => {
      if (this.#listeners.delete(listener) && this.#listeners.size === 0) this.#listen('UNLISTEN');
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#listeners.clear();
    const client = await this.#client?.catch(() => undefined);
    await client?.end().catch(() => undefined);
  }

  #connect(): Promise<pg.Client> {
    if (this.#client) return this.#client;
    const opening = this.#open();
    this.#client = opening;
    opening.catch(() => {
      if (this.#client === opening) this.#client = undefined;
    });
    return opening;
  }

  async #open(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.#connectionString,
      keepAlive: true,
      application_name: 'adk-job-changes',
    });
    client.on('error', () => undefined);
    client.on('end', () => this.#drop(client));
    client.on('notification', (message) => {
      if (message.channel !== this.#channel || this.#listeners.size === 0) return;
      // Our own NOTIFY comes back to us too; this process saw that change in process.
      if (message.processId === (client as unknown as { processID?: number }).processID) return;
      const change = decodeJobChange(message.payload);
      for (const listener of this.#listeners) listener(change);
    });
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.#current = client;
    return client;
  }

  /**
   * Start or stop listening on the connection (opening it if needed). PostgreSQL takes a second
   * `LISTEN`, or an `UNLISTEN` of a channel not listened to, as a no-op, and the statements of one
   * connection run in order, so the last one sent wins. Once a `LISTEN` holds, the listeners are
   * told of a change of an unknown app: what changed before it was not heard, so they look again.
   */
  #listen(command: 'LISTEN' | 'UNLISTEN'): void {
    if (this.#closed) return;
    void this.#connect()
      .then((client) => client.query(this.#statement(command)))
      .then(() => {
        if (command === 'LISTEN') tellUnknownChange(this.#listeners);
      })
      .catch(() => undefined);
  }

  #statement(command: 'LISTEN' | 'UNLISTEN'): string {
    return `${command} "${this.#channel.replaceAll('"', '""')}"`;
  }

  /** Forget a lost connection and listen again soon (while someone listens). */
  #drop(client: pg.Client): void {
    if (this.#current !== client) return;
    this.#current = undefined;
    this.#client = undefined;
    if (this.#closed || this.#listeners.size === 0) return;
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => this.#listen('LISTEN'), 1000);
    this.#retry.unref();
  }
}
