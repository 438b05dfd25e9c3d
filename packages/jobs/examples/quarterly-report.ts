/**
 * Background agent runs, offline: `pnpm --filter @adk/jobs example`.
 * A job store on a SQLite database, a report job for now and one for in an hour, a worker.
 */
import { LlmAgent, Runner, userContent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { JobWorker, SqlJobStore, subscribeJobEvents } from '@adk/jobs';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';

const db = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
const store = new SqlJobStore({ db }); // tables created on first use

const model = new FakeModel({ responses: () => 'Revenue grew 12% quarter on quarter.' });
const agent = new LlmAgent({ name: 'analyst', model, instruction: 'Analyze reports.' });
const runner = new Runner({ appName: 'reports', agent });

subscribeJobEvents('completed', ({ job }) => console.log('completed:', job.result?.finalText));

await store.enqueue({
  appName: 'reports',
  userId: 'u1',
  message: userContent('Analyze the quarterly report'),
  queue: 'critical',
});
const later = await store.enqueue({
  appName: 'reports',
  userId: 'u1',
  message: userContent('Analyze the quarterly report again'),
  runIn: 60 * 60 * 1000, // in an hour
});

const worker = new JobWorker({ store, runners: [runner], queues: { default: 5, critical: 10 } });
await worker.drain(); // a long-lived process calls worker.start() instead
console.log('later job:', later.job.state, new Date(later.job.runAt).toISOString());
await worker.stop();
await db.destroy();
