// Prints every failed test of the last `pnpm test` under CI, from the JSON results each package's
// Vitest wrote (vitest.shared.ts), so that the end of the CI log names them with their errors.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const MAX_LINES = 40;
let failed = 0;
for (const group of ['packages', 'tooling']) {
  const groupDir = path.join(root, group);
  if (!existsSync(groupDir)) continue;
  for (const name of readdirSync(groupDir).sort()) {
    const file = path.join(groupDir, name, '.vitest-results', 'results.json');
    if (!existsSync(file)) continue;
    const results = JSON.parse(readFileSync(file, 'utf8'));
    for (const suite of results.testResults ?? []) {
      const where = path.relative(root, suite.name);
      const failures = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
      if (failures.length === 0 && suite.status === 'failed') {
        // The file failed outside any test: an import error or a failing hook.
        failed++;
        console.log(`\n--- ${where}: the file failed\n${cut(suite.message ?? '')}`);
      }
      for (const test of failures) {
        failed++;
        console.log(
          `\n--- ${where} > ${test.fullName}\n${cut((test.failureMessages ?? []).join('\n'))}`,
        );
      }
    }
  }
}
console.log(failed === 0 ? '\nNo failed test in the JSON results.' : `\n${failed} failed.`);

/** The error without the test runner's own stack frames, at most MAX_LINES lines. */
function cut(text) {
  const lines = text.split('\n').filter((line) => !/^\s+at .*node_modules/.test(line));
  return lines.length <= MAX_LINES
    ? lines.join('\n')
    : [...lines.slice(0, MAX_LINES), `... (${lines.length - MAX_LINES} more lines)`].join('\n');
}
