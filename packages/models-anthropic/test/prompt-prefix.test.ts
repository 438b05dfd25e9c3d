import { anthropicCacheOrder, startFakeAnthropic } from '@adk/fake-provider-servers';
import { promptPrefixAcceptance } from '@adk/fake-provider-servers/acceptance';

import { createAnthropic } from '../src';

promptPrefixAcceptance({
  provider: 'Anthropic',
  startServer: startFakeAnthropic,
  cacheOrder: anthropicCacheOrder,
  createModel: (baseURL) =>
    createAnthropic({ apiKey: 'test-key', baseURL, promptCaching: true })('claude-sonnet-4-5'),
});
