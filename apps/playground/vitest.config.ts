import { defineConfig, mergeConfig } from 'vitest/config';

import shared from '../../vitest.shared';

// The web UI served at / is @adk/web's Vite build: build it first when missing or stale.
// @adk/mcp's SDK pulls eventsource-parser, whose `source` export is TypeScript: let Vite
// transform it instead of Node loading it.
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      globalSetup: ['./test/build-web-ui.ts'],
      server: { deps: { inline: [/eventsource/, /@modelcontextprotocol\/sdk/] } },
    },
  }),
);
