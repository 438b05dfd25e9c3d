import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { userContent } from '@adk/core';
import { sqliteKysely, temporaryDirectory, bundledScript } from '@adk/test-databases';
import { afterAll, expect, it } from 'vitest';

import { SqlJobStore } from '../src';

const temp = temporaryDirectory('adk-jobs-processes-');
afterAll(() => temp.remove());

const script = await bundledScript(
  fileURLToPath(new URL('./fixtures/sqlite-worker-process.ts', import.meta.url)),
);
const packageRoot = fileURLToPath(new URL('..', import.meta.url));

type Reply = { ran: string[] } | { error: string };

function message<T>(child: ChildProcess, accept: (message: unknown) => message is T): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`worker process exited with ${code}`));
    child.once('exit', onExit);
    child.on('message', function onMessage(value) {
      if (!accept(value)) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(value);
    });
  });
}

it('worker processes sharing one SQLite file run every job exactly once', async () => {
  const path = temp.file('jobs.db');
  const db = sqliteKysely(path, { wal: true });
  const store = new SqlJobStore({ db });
  const total = 30;
  for (let i = 0; i < total; i++)
    await store.enqueue({ appName: 'reports', userId: 'u1', message: userContent(`job ${i}`) });
  const children = [0, 1, 2].map(() =>
    fork(script, [path], {
      cwd: packageRoot,
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  await Promise.all(children.map((child) => message(child, (m): m is 'ready' => m === 'ready')));
  const replies = children.map((child) =>
    message(child, (m): m is Reply => typeof m === 'object' && m !== null),
  );
  for (const child of children) child.send('go');
  const results = await Promise.all(replies);
  for (const result of results) expect(result).not.toHaveProperty('error');
  const ran = results.flatMap((result) => ('ran' in result ? result.ran : []));
  expect(ran.toSorted()).toEqual(Array.from({ length: total }, (_, i) => `job ${i}`).toSorted());
  const completed = await store.list({ state: 'completed' });
  expect(completed).toHaveLength(total);
  expect(completed.every((job) => job.attempt === 1)).toBe(true);
  await db.destroy();
});
