import { randomUUID } from 'node:crypto';

import { Redis } from 'ioredis';

import {
  decodeJobChange,
  encodeJobChange,
  tellUnknownChange,
  type JobChange,
  type JobChangeFeed,
} from '../notify';

/** Options of {@link RedisJobChangeFeed}. */
export interface RedisJobChangeFeedOptions {
  /** The Redis every process of the deployment shares, `redis://…`. */
  url: string;
  /** The pub/sub channel (default `adk:job-changes`); one per deployment on a Redis. */
  channel?: string;
}

/**
 * A {@link JobChangeFeed} on Redis pub/sub, for deployments whose queue is BullMQ: two
 * connections per process (a subscribed one cannot publish). The channel is subscribed to only
 * while someone subscribes to the feed (a server with no job stream open is sent no messages, so
 * the changes of a deployment cost each idle instance nothing). Each message carries this
 * process's random id so that it skips its own. ioredis reconnects and subscribes again by
 * itself; messages sent meanwhile are missed (the streams' slow poll catches them).
 */
export class RedisJobChangeFeed implements JobChangeFeed {
  readonly #channel: string;
  readonly #origin = randomUUID();
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #listeners = new Set<(change: JobChange) => void>();

  private constructor(options: RedisJobChangeFeedOptions) {
    this.#channel = options.channel ?? 'adk:job-changes';
    this.#publisher = new Redis(options.url, { maxRetriesPerRequest: 1 });
    this.#subscriber = new Redis(options.url, { maxRetriesPerRequest: null });
    this.#publisher.on('error', () => undefined);
    this.#subscriber.on('error', () => undefined);
    this.#subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.#channel || this.#listeners.size === 0) return;
      const separator = message.indexOf(' ');
      if (message.slice(0, separator) === this.#origin) return;
      const change = decodeJobChange(message.slice(separator + 1));
      for (const listener of this.#listeners) listener(change);
    });
  }

  /** Connect (both connections answer a `PING` before this resolves). */
  static async open(options: RedisJobChangeFeedOptions): Promise<RedisJobChangeFeed> {
    const feed = new RedisJobChangeFeed(options);
    try {
      await Promise.all([feed.#subscriber.ping(), feed.#publisher.ping()]);
    } catch (error) {
      await feed.close();
      throw error;
    }
    return feed;
  }

  publish(change: JobChange): void {
    void this.#publisher
      .publish(this.#channel, `${this.#origin} ${encodeJobChange(change)}`)
      .catch(() => undefined);
  }

  subscribe(listener: (change: JobChange) => void): () => void {
    this.#listeners.add(listener);
    // The commands of one connection run in order: the last of a subscribe and an unsubscribe
    // sent in a row wins.
    if (this.#listeners.size === 1) {
      void this.#subscriber
        .subscribe(this.#channel)
        .then(() => tellUnknownChange(this.#listeners))
        .catch(ignore);
    }
    return () => {
      if (this.#listeners.delete(listener) && this.#listeners.size === 0)
        void this.#subscriber.unsubscribe(this.#channel).catch(ignore);
    };
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    this.#subscriber.disconnect();
    await this.#publisher.quit().catch(() => this.#publisher.disconnect());
  }
}

function ignore(): void {}
