import { mergeConfig } from 'vitest/config';

import shared from '../../vitest.shared';

// eventsource-parser (used by @ai-sdk/provider-utils) publishes a `source` export condition
// pointing at its TypeScript sources; the workspace resolves `source` first, so Vite must
// transform it rather than hand the .ts file to Node.
export default mergeConfig(shared, {
  test: {
    server: {
      deps: {
        inline: [/eventsource-parser/, /@ai-sdk\//, /openai-compatible/, /node_modules\/ai\//],
      },
    },
  },
});
