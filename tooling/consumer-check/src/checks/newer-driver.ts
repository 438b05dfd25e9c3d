import { copyFileSync } from 'node:fs';
import { join } from 'node:path';

import { createConsumerProject } from '../consumer-project';
import type { NodeRuntime } from '../node-runtime';
import type { Tarball } from '../pack';
import { expectThat } from '../run-command';
import { runNode } from './run-examples';

/**
 * On a Node.js older than 22: the session-sql README example in a pnpm project where
 * better-sqlite3 13 got installed (what `pnpm add better-sqlite3` does on Node 20, without a word).
 * Its addon segfaults on load; session-sql must refuse it first with `SqlDriverMissingError`
 * naming better-sqlite3 12.
 */
export async function newerDriverOnOldNode(options: {
  dir: string;
  runtime: NodeRuntime;
  tarballs: readonly Tarball[];
  /** The compiled session-sql README example. */
  example: string;
}): Promise<string> {
  const wanted = ['@adk/core', '@adk/session-sql', '@adk/sql-kit'];
  const project = await createConsumerProject({
    dir: options.dir,
    manager: 'pnpm',
    runtime: options.runtime,
    tarballs: options.tarballs.filter((tarball) => wanted.includes(tarball.pkg.name)),
    registry: { zod: '^4.0.0', kysely: '~0.28.0', 'better-sqlite3': '^13.0.0' },
  });
  copyFileSync(options.example, join(project.dir, 'session-example.js'));
  const result = await runNode(project, ['session-example.js'], {
    env: { ADK_SESSION_URL: 'sqlite::memory:' },
    allowFailure: true,
  });
  const output = `${result.stdout}\n${result.stderr}`;
  expectThat(
    result.code === 1 &&
      output.includes('SqlDriverMissingError') &&
      output.includes('npm install better-sqlite3@12'),
    `better-sqlite3 13 on ${options.runtime.version} is not refused with SqlDriverMissingError (exit ${String(result.code)})`,
    output,
  );
  return `SqlDriverMissingError (unsupported-node), exit 1`;
}
