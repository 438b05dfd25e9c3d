import { parseArgs } from 'node:util';

import { formatClusterLoadReport, runClusterLoad } from './cluster-load';

/**
 * `pnpm --filter @adk/bench load:cluster [--users N] [--turns N] [--instances N] [--workers N]
 * [--warmup N] [--no-chaos] [--scaling] [--first-server-only] [--job-turn N] [--json]`: the cluster
 * load test at any size. `--scaling` runs it without chaos on 1, 2 and 3 instances for turns/s and
 * CPU per turn; `--warmup N` runs N turns per user on each server first; `--first-server-only`
 * sends the measured turns to the first server alone (the others' CPU is then what they pay for
 * its turns); `--job-turn=-1` runs no turn as a background job.
 */
const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '50' },
    turns: { type: 'string', default: '6' },
    instances: { type: 'string', default: '3' },
    workers: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '0' },
    'no-chaos': { type: 'boolean', default: false },
    scaling: { type: 'boolean', default: false },
    'first-server-only': { type: 'boolean', default: false },
    'job-turn': { type: 'string', default: '2' },
    json: { type: 'boolean', default: false },
  },
});
const base = {
  users: Number(values.users),
  turnsPerUser: Number(values.turns),
  workers: Number(values.workers),
  jobTurn: Number(values['job-turn']),
  firstServerOnly: values['first-server-only'],
  warmupTurns: Number(values.warmup),
  postgresUrl: process.env.ADK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  redisUrl: process.env.ADK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  log: (line: string) => process.stderr.write(`${line}\n`),
};
const runs = values.scaling
  ? [1, 2, 3].map((instances) => ({ ...base, instances, chaos: false }))
  : [{ ...base, instances: Number(values.instances), chaos: !values['no-chaos'] }];
let failed = false;
for (const run of runs) {
  const report = await runClusterLoad(run);
  process.stdout.write(
    `${values.json ? JSON.stringify(report) : formatClusterLoadReport(report)}\n\n`,
  );
  const v = report.verification;
  if (
    v.lostTurns.length + v.lostEvents + v.duplicatedMessages.length + v.duplicatedToolRuns.length >
    0
  )
    failed = true;
}
process.exit(failed ? 1 : 0);
