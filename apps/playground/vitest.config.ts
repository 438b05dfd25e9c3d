import { mergeConfig } from 'vitest/config';

import shared from '../../vitest.shared';

// @adk/mcp's SDK pulls eventsource-parser, whose `source` export is TypeScript: let Vite
// transform it instead of Node loading it.
export default mergeConfig(shared, {
  test: { server: { deps: { inline: [/eventsource/, /@modelcontextprotocol\/sdk/] } } },
});
