import { defineConfig, mergeConfig } from 'vitest/config';

import shared from '../../vitest.shared';

// Unit tests of the browser code's pure parts and the bundle budget run in Node (the budget test
// builds the app first when needed). The end-to-end tests in Chromium live in apps/playground:
// they need @adk/server, which depends on this package.
export default mergeConfig(
  shared,
  defineConfig({ test: { globalSetup: ['./test/build-web-ui.ts'] } }),
);
