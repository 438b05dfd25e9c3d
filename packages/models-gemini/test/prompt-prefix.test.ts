import { geminiCacheOrder, startFakeGemini } from '@adk/fake-provider-servers';
import { promptPrefixAcceptance } from '@adk/fake-provider-servers/acceptance';

import { createGemini } from '../src';

promptPrefixAcceptance({
  provider: 'Gemini',
  startServer: startFakeGemini,
  cacheOrder: geminiCacheOrder,
  createModel: (baseURL) => createGemini({ apiKey: 'test-key', baseURL })('gemini-2.5-flash'),
});
