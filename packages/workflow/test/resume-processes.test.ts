import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import {
  createPostgresSchema,
  dropPostgresSchema,
  postgresSchemaName,
  postgresUnavailable,
  temporaryDirectory,
  bundledScript,
} from '@adk/test-databases';
import { afterAll, describe, expect, it } from 'vitest';

const temp = temporaryDirectory('adk-workflow-processes-');
afterAll(() => temp.remove());

const script = await bundledScript(
  fileURLToPath(new URL('./fixtures/workflow-process.ts', import.meta.url)),
);
const packageRoot = fileURLToPath(new URL('..', import.meta.url));

type Reply = { stopped: string[] } | { done: unknown } | { error: string };

/** Start the process; resolves with its first report (a stopped process is then SIGKILLed). */
function runProcess(args: string[]): Promise<Reply> {
  const child = fork(script, args, {
    cwd: packageRoot,
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`process exited with ${code}`));
    child.once('exit', onExit);
    child.once('message', (reply: Reply) => {
      child.off('exit', onExit);
      if ('stopped' in reply) {
        // Killed at a node boundary: the node's output is stored, nothing after it ran.
        child.once('exit', () => resolve(reply));
        child.kill('SIGKILL');
      } else child.once('exit', () => resolve(reply));
    });
  });
}

const NODES = ['fetch', 'left', 'right', 'approve', 'total'];

function runs(log: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of readFileSync(log, 'utf8').split('\n').filter(Boolean))
    counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

const skipPostgres = await postgresUnavailable();

const backends: Array<
  [string, () => Promise<{ backend: string; done: () => Promise<void> }>, boolean]
> = [
  [
    'SQLite',
    async () => ({ backend: `sqlite:${temp.file(`${Math.random()}.db`)}`, done: async () => {} }),
    false,
  ],
  [
    'PostgreSQL',
    async () => {
      const schema = postgresSchemaName('workflow');
      await createPostgresSchema(schema);
      return { backend: `postgres:${schema}`, done: () => dropPostgresSchema(schema) };
    },
    skipPostgres !== undefined,
  ],
];

for (const [label, open, skip] of backends) {
  describe.skipIf(skip)(`resume after a kill (${label}, real processes)`, () => {
    // Boundaries: after the start record (0), after each of the 6 node outputs (after the last: before the end record).
    for (let boundary = 0; boundary <= 6; boundary++) {
      it(`killed after ${boundary} stored node output(s): the next process finishes, finished nodes ran once`, async () => {
        const { backend, done } = await open();
        const log = temp.file(`${label}-${boundary}-${Math.random()}.log`);
        writeFileSync(log, '');
        const first = await runProcess([backend, log, 'hello', String(boundary)]);
        if (!('stopped' in first))
          throw new Error(`the first process did not stop: ${JSON.stringify(first)}`);
        expect(first.stopped).toHaveLength(boundary);
        const before = runs(log);
        const second = await runProcess([backend, log, 'resume', '-1']);
        expect(second).toEqual({ done: { left: 6, right: 50 } });
        const after = runs(log);
        for (const name of NODES) {
          // Each node ran once in all, except one still running at the kill (not stored) may run twice.
          expect(after[name], name).toBeGreaterThanOrEqual(1);
          expect(after[name], name).toBeLessThanOrEqual((before[name] ?? 0) + 1);
        }
        // A node whose output was stored before the kill never ran again.
        for (const name of first.stopped.filter((n) => NODES.includes(n))) {
          expect(after[name], name).toBe(1);
        }
        await done();
      });
    }

    it('a pause is answered from a second process: the answer resumes the node, nothing re-runs', async () => {
      const { backend, done } = await open();
      const log = temp.file(`${label}-ask-${Math.random()}.log`);
      writeFileSync(log, '');
      expect(await runProcess([backend, log, 'ask please', '-1'])).toEqual({ done: null });
      expect(runs(log)).toEqual({ fetch: 1, left: 1, right: 1, approve: 1 });
      const answered = await runProcess([backend, log, 'answer:approval:{"ok":true}', '-1']);
      expect(answered).toEqual({ done: { ok: true } });
      expect(runs(log)).toEqual({ fetch: 1, left: 1, right: 1, approve: 1, total: 1 });
      await done();
    });
  });
}
