import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const vitestCli = join(
  dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);

describe('modelProviderConformance catches a broken provider', () => {
  it('fails a provider that reports a truncated answer (length) as STOP', () => {
    const run = spawnSync(
      process.execPath,
      [
        vitestCli,
        'run',
        '--config',
        join(here, '__fixtures__', 'vitest.config.ts'),
        '-t',
        'MAX_TOKENS',
      ],
      {
        cwd: join(here, '__fixtures__'),
        encoding: 'utf8',
        // Killed (and the test failed) only if it hangs: below the test's own timeout.
        timeout: 150_000,
        env: { ...process.env, CI: 'true' },
      },
    );
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(1);
    expect(output).toContain('a truncated answer must not look complete (STOP)');
    expect(output).toMatch(/2 failed/);
  });
});
