import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageRoot = fileURLToPath(new URL('..', import.meta.url));

/** Each example runs as a user would run it, and ends with the output its pattern produces. */
const examples: Array<[string, RegExp]> = [
  ['routing', /output: "Your refund for order 42 is on its way\."/],
  ['fan-out-fan-in', /output: "Fly AF123 to Paris, stay at Hotel du Nord, Paris\."/],
  ['loop', /refine@4 .*\(route done\)\n.*publish@1/],
  ['parallel-worker', /measure_all@1 -> \[\{"word":"graph","length":5\}/],
  ['human-input', /approve@1 waits for approve-quote[\s\S]*output: "Ordered\."/],
  ['nested-workflow', /output: "6 words"/],
  [
    'task-delegation',
    /intake@1 waits for the next message[\s\S]*output: "Ticket filed for Ada, order A-17\."/,
  ],
];

describe('examples', () => {
  for (const [name, expected] of examples) {
    it(`examples/${name}.ts runs`, async () => {
      const { stdout } = await run(
        process.execPath,
        ['--conditions=source', '--import', 'tsx', `examples/${name}.ts`],
        { cwd: packageRoot },
      );
      expect(stdout).toMatch(expected);
    });
  }
});
