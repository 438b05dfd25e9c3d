import { defineConfig } from 'vitest/config';

import shared from '../../vitest.shared';

// Only `source` (workspace TypeScript) plus Node's own conditions. Forcing `import` makes Node hand
// pg's CommonJS `require('pg-pool')` an ES module ("Class extends value [object Module]"), and
// `module` picks @opentelemetry/api's extensionless ESM build, which Node cannot load. Vite still
// adds `import` or `require` per call.
const conditions = ['source', 'node', 'default'];
export default defineConfig({
  ...shared,
  resolve: { ...shared.resolve, conditions },
  ssr: { ...shared.ssr, resolve: { ...shared.ssr?.resolve, conditions } },
});
