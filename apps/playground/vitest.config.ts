import { defineConfig } from 'vitest/config';

import shared from '../../vitest.shared';

/**
 * The shared settings, minus the `import` resolve condition for server-side modules: vitest hands
 * it to Node, which then makes `pg`'s `require('pg-pool')` load pg-pool's ESM build (as in
 * `@adk/session-sql`).
 */
const conditions = ['source', 'module', 'node', 'default'];

export default defineConfig({
  ...shared,
  resolve: { ...shared.resolve, conditions },
  ssr: { ...shared.ssr, resolve: { ...shared.ssr?.resolve, conditions } },
});
