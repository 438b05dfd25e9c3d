import { defineConfig } from 'vitest/config';

/**
 * Shared Vitest settings. Workspace packages resolve to their TypeScript sources through the
 * `source` export condition, so tests never need a build first.
 *
 * Only `source` plus Node's own conditions: Vite adds `import` or `require` per call by itself.
 * Forcing `import` makes Node hand pg's CommonJS `require('pg-pool')` an ES module ("Class extends
 * value [object Module]"), and `module` picks @opentelemetry/api's extensionless ESM build, which
 * Node cannot load.
 */
const conditions = ['source', 'node', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // Guards against a hang, not time budgets: on a busy 2-core machine a test that takes 2 s
    // alone can take 40. Tests wait on events or poll with generous deadlines; a test that needs
    // more than this is hanging. Do not lower it per test.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // `expect.poll` returns as soon as its check passes: a generous deadline costs nothing.
    expect: { poll: { timeout: 30_000 } },
    restoreMocks: true,
    // Under CI each package also writes its results as JSON, so that `.ci/run` can print every
    // failed test at the end of the log (turbo interleaves the packages' output, and a failure in
    // a package that finished early would otherwise scroll out of what a log's tail shows).
    ...(process.env.CI
      ? { reporters: ['default', 'json'], outputFile: { json: '.vitest-results/results.json' } }
      : {}),
  },
});
