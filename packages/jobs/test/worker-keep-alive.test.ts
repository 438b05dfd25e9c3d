import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { bundledScript } from '@adk/test-databases';
import { expect, it } from 'vitest';

const script = await bundledScript(
  fileURLToPath(new URL('./fixtures/idle-worker-process.ts', import.meta.url)),
);
const packageRoot = fileURLToPath(new URL('..', import.meta.url));

function launch(args: string[]) {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: packageRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, exited, output: () => output };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('a started worker keeps its idle process alive until stop()', async () => {
  const { child, exited, output } = launch([]);
  let exitCode: number | null | 'running' = 'running';
  void exited.then((code) => (exitCode = code));
  // Up to two minutes for the child to start (slow on a busy machine).
  for (let i = 0; i < 2400 && !output().includes('started'); i++) await sleep(50);
  expect(output()).toContain('started');
  // Many poll intervals later, the process is still there.
  await sleep(1500);
  expect(exitCode).toBe('running');
  child.kill('SIGTERM');
  await exited;
});

it('the process exits by itself once the worker is stopped', async () => {
  const { exited, output } = launch(['stop-after', '300']);
  expect(await exited).toBe(0);
  expect(output()).toContain('stopped');
});
