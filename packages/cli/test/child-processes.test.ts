import { describe, expect, it } from 'vitest';

import { killGroups, spawnTracked } from './child-processes';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A parent that starts a child of its own (as the launcher starts tsx) and prints both pids. */
const PARENT = `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
console.log(process.pid, child.pid);
setInterval(() => {}, 1000);
`;

describe('spawnTracked', () => {
  it("kills a test's child process and the process it started", async () => {
    const parent = spawnTracked(process.execPath, ['-e', PARENT], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve) =>
      parent.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())),
    );
    const pids = line.trim().split(' ').map(Number);
    expect(pids).toHaveLength(2);
    expect(pids.every(isAlive)).toBe(true);
    const exited = new Promise((resolve) => parent.once('exit', resolve));
    killGroups();
    await exited;
    // The grandchild is no child of ours: poll until it is gone (generous deadline).
    await expect.poll(() => pids.some(isAlive), { timeout: 30_000 }).toBe(false);
  });
});
