import { defineConfig } from 'vitest/config';

/**
 * Shared Vitest settings. Workspace packages resolve to their TypeScript sources through the
 * `source` export condition, so tests never need a build first.
 */
export default defineConfig({
  resolve: { conditions: ['source', 'import', 'module', 'node', 'default'] },
  ssr: { resolve: { conditions: ['source', 'import', 'module', 'node', 'default'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    restoreMocks: true,
  },
});
