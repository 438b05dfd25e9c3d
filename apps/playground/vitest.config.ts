import { defineConfig, mergeConfig } from 'vitest/config';

import shared from '../../vitest.shared';

// The web UI served at / is @adk/web's Vite build: build it first when missing or stale.
export default mergeConfig(
  shared,
  defineConfig({ test: { globalSetup: ['./test/build-web-ui.ts'] } }),
);
