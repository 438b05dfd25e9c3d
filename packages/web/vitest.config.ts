import { defineConfig, mergeConfig } from 'vitest/config';

import shared from '../../vitest.shared';

// The unit tests of the browser code's pure parts run in Node; the end-to-end tests in Chromium
// live in apps/playground (they need @adk/server, which depends on this package).
export default mergeConfig(shared, defineConfig({ test: { include: ['src/**/*.test.ts'] } }));
