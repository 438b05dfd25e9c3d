import { describeGeminiRequest, startFakeGemini } from '@adk/fake-provider-servers';
import { weatherAgentAcceptance } from '@adk/fake-provider-servers/acceptance';

import { createGemini } from '../src';

weatherAgentAcceptance({
  provider: 'Gemini',
  startServer: startFakeGemini,
  describeRequest: describeGeminiRequest,
  createModel: (baseURL) => createGemini({ apiKey: 'test-key', baseURL })('gemini-2.5-flash'),
});
