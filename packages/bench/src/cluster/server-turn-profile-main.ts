import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';

import { profileServerTurns } from './server-turn-profile';

/**
 * `pnpm --filter @adk/bench profile:server [--users N] [--turns N] [--warmup N] [--tool-ms N]
 * [--runs N] [--perf DIR] [--ready-path PATH] [--no-migrate] [--server-arg ARG ...]`: where one
 * `adk api_server` on PostgreSQL sessions spends its CPU on `/run_sse` turns (see
 * `server-turn-profile.ts`); prints one JSON line per run. `--perf DIR` records the turns with
 * Linux `perf` into DIR and splits the server's CPU by part. `--ready-path` and `--no-migrate` let
 * the same harness drive an older CLI (one without `/health/ready` or `adk migrate`) for an A/B
 * against an earlier commit; `--server-arg` (repeatable) passes an argument to `adk api_server`.
 */
const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '10' },
    turns: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '10' },
    'tool-ms': { type: 'string', default: '5' },
    runs: { type: 'string', default: '1' },
    perf: { type: 'string' },
    'ready-path': { type: 'string', default: '/health/ready' },
    'no-migrate': { type: 'boolean', default: false },
    'server-arg': { type: 'string', multiple: true, default: [] },
  },
});
for (let run = 0; run < Number(values.runs); run++) {
  const load = loadavg()[0]!.toFixed(2);
  const profile = await profileServerTurns({
    users: Number(values.users),
    turnsPerUser: Number(values.turns),
    warmupTurns: Number(values.warmup),
    toolMs: Number(values['tool-ms']),
    ...(values.perf ? { perfDir: values.perf } : {}),
    readyPath: values['ready-path'],
    migrate: !values['no-migrate'],
    serverArgs: values['server-arg'],
    postgresUrl: process.env.ADK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    redisUrl: process.env.ADK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  });
  process.stdout.write(`${JSON.stringify({ load, ...profile })}\n`);
}
