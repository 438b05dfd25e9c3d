import { defineConfig } from 'vitest/config';

/**
 * Runs the test of a project made by `adk create` inside this repository: the workspace packages
 * resolve to their sources (no build needed), as the published ones would from npm.
 */
const conditions = ['source', 'node', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: { include: ['*.test.ts'], environment: 'node', testTimeout: 180_000 },
});
