import { defineConfig } from 'vitest/config';

import shared from '../../vitest.shared';

// pg's CommonJS entry `require`s pg-pool; with the `import` condition forced on, Node hands it
// pg-pool's ES module and `class extends` fails. Keep the `source` condition and let Vite pick
// `import` or `require` per call.
const conditions = ['source', 'module', 'node', 'default'];
export default defineConfig({
  ...shared,
  resolve: { ...shared.resolve, conditions },
  ssr: { ...shared.ssr, resolve: { ...shared.ssr?.resolve, conditions } },
});
