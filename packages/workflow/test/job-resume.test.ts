import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { userContent } from '@adk/core';
import { SqlJobStore } from '@adk/jobs';
import { createSessionService } from '@adk/session-sql';
import { sqliteKysely, temporaryDirectory, bundledScript } from '@adk/test-databases';
import { afterAll, describe, expect, it } from 'vitest';

import { workflowRecordOf } from '../src';

const temp = temporaryDirectory('adk-workflow-jobs-');
const script = await bundledScript(
  fileURLToPath(new URL('./fixtures/workflow-job-worker.ts', import.meta.url)),
);
const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  temp.remove();
});

/** Start a worker process; resolves once its stdout printed `line`. */
function launch(args: string[], line: string): { child: ChildProcess; reached: Promise<void> } {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: packageRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(() => child.kill('SIGKILL'));
  let seen = '';
  const reached = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited with ${code} before "${line}"`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(line)) resolve();
    });
  });
  return { child, reached };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a workflow as a durable job (SqlJobStore on SQLite, real processes)', () => {
  it('a worker killed mid-node: the retry resumes the run, finished nodes never run again', async () => {
    const jobsFile = temp.file('jobs.db');
    const sessionsFile = temp.file('sessions.db');
    const log = temp.file('nodes.log');
    writeFileSync(log, '');
    const db = sqliteKysely(jobsFile, { wal: true });
    const store = new SqlJobStore({ db });
    await store.migrate();
    cleanups.push(() => db.destroy());
    const { job } = await store.enqueue({
      appName: 'app',
      userId: 'u',
      message: userContent('hello'),
      maxAttempts: 5,
    });

    // The first worker runs fetch, left, right and the join, then is killed inside `slow`.
    const first = launch([jobsFile, sessionsFile, log, 'hang'], 'in-slow');
    await first.reached;
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;
    const firstPid = String(first.child.pid);
    const before = readFileSync(log, 'utf8').trim().split('\n');
    expect(before.map((line) => line.split(' ')[0]).sort()).toEqual([
      'fetch',
      'left',
      'right',
      'slow',
    ]);

    // A second worker claims the job once the lease expired, and resumes the invocation.
    const second = launch([jobsFile, sessionsFile, log, 'run'], 'ready');
    await second.reached;
    const deadline = Date.now() + 30_000;
    let done = await store.get(job.id);
    while (done?.state !== 'completed' && Date.now() < deadline) {
      await sleep(100);
      done = await store.get(job.id);
    }
    second.child.kill('SIGTERM');
    expect(done?.state).toBe('completed');
    expect(done?.attempt).toBe(2);

    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const runs = (node: string) => lines.filter((line) => line.startsWith(`${node} `));
    // Finished nodes ran once, in the killed process; the node cut short ran again, then the rest.
    for (const node of ['fetch', 'left', 'right'])
      expect(runs(node), node).toEqual([`${node} ${firstPid}`]);
    expect(runs('slow')).toHaveLength(2);
    expect(runs('total')).toHaveLength(1);
    expect(runs('total')[0]).not.toContain(firstPid);

    // The run continued (one start record, one end record with the output), the message was
    // stored once.
    const sessions = await createSessionService(`sqlite:${sessionsFile}`);
    cleanups.push(() => sessions.close());
    const session = await sessions.getSession({
      appName: 'app',
      userId: 'u',
      sessionId: `job-${job.id}`,
    });
    const records = (session?.events ?? []).flatMap((event) => {
      const record = workflowRecordOf(event);
      return record ? [record] : [];
    });
    expect(records.filter((record) => record.kind === 'start')).toHaveLength(1);
    expect(records.filter((record) => record.kind === 'end')).toEqual([
      expect.objectContaining({ status: 'completed', output: 'total 56' }),
    ]);
    expect(session?.events.filter((event) => event.author === 'user')).toHaveLength(1);
    expect(done?.result?.finalText).toBe('total 56');
  });
});
