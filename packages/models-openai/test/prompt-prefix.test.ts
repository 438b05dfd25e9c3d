import { openaiCacheOrder, startFakeOpenAI } from '@adk/fake-provider-servers';
import { promptPrefixAcceptance } from '@adk/fake-provider-servers/acceptance';

import { createOpenAI } from '../src';

promptPrefixAcceptance({
  provider: 'OpenAI',
  startServer: startFakeOpenAI,
  cacheOrder: openaiCacheOrder,
  createModel: (baseURL) => createOpenAI({ apiKey: 'test-key', baseURL })('gpt-4o'),
});
