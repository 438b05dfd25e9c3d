import { spawn, type ChildProcessWithoutNullStreams, type SpawnOptions } from 'node:child_process';

import { afterAll, afterEach } from 'vitest';

/**
 * Child processes of the tests, each in its own process group so that killing the group also
 * kills what it started (the `adk` launcher runs the CLI through tsx). Every group is killed after
 * each test, passed, failed or timed out, and when the test process exits: no `adk web` outlives
 * its test.
 */
const groups = new Set<number>();

/** Kill every tracked group now (the hooks below call it after each test). */
export function killGroups(): void {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  groups.clear();
}

afterEach(killGroups);
afterAll(killGroups);
process.once('exit', killGroups);

/** `spawn` in a new process group, killed (with its children) after the test. */
export function spawnTracked(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): ChildProcessWithoutNullStreams {
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid !== undefined) groups.add(child.pid);
  return child as ChildProcessWithoutNullStreams;
}
