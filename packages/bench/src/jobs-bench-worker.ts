/**
 * A worker process of the jobs benchmark: argv = engine (`sqlite`, `graphile`, `bullmq`) and where
 * (SQLite file, schema, Redis prefix). Runs a FakeModel agent with one tool call per job, 4 jobs at
 * once, until SIGTERM.
 */
import {
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  Runner,
  getFunctionResponses,
} from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { JobWorker, SqlJobStore, type JobStore } from '@adk/jobs';
import { BullMqJobStore } from '@adk/jobs/bullmq';
import { GraphileJobStore } from '@adk/jobs/graphile';

import { POSTGRES_URL, REDIS_URL, sqliteJobsKysely } from './jobs-bench-urls';

const [engine, where] = process.argv.slice(2) as [string, string];

function openStore(): JobStore {
  if (engine === 'sqlite') return new SqlJobStore({ db: sqliteJobsKysely(where) });
  if (engine === 'graphile')
    return new GraphileJobStore({ connectionString: POSTGRES_URL, schema: where });
  return new BullMqJobStore({ url: REDIS_URL, prefix: where });
}

const lookup = new FunctionTool({
  name: 'lookup',
  description: 'Look up the figures.',
  execute: async () => ({ revenue: 12 }),
});
const model = new FakeModel({
  responses: (request) =>
    getFunctionResponses(request.contents.at(-1)).length > 0
      ? 'Revenue grew 12%.'
      : { functionCalls: [{ name: 'lookup', args: {}, id: 'lookup-1' }] },
});
const agent = new LlmAgent({ name: 'analyst', model, tools: [lookup] });
const runner = new Runner({
  appName: 'bench',
  agent,
  sessionService: new InMemorySessionService(),
});
const store = openStore();
const worker = new JobWorker({ store, runners: [runner], queues: { default: 4 } });
worker.start();
process.on('SIGTERM', () => {
  void worker
    .stop()
    .then(() => store.close())
    .finally(() => process.exit(0));
});
process.stdout.write('ready\n');
