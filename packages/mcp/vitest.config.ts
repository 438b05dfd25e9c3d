import { mergeConfig } from 'vitest/config';

import shared from '../../vitest.shared';

// eventsource-parser (under the SDK's SSE client) exports TypeScript sources under the `source`
// condition this repo uses for its own packages: let Vite transform it instead of Node loading it.
export default mergeConfig(shared, {
  test: {
    server: {
      deps: { inline: [/eventsource/, /@modelcontextprotocol\/sdk/] },
    },
  },
});
