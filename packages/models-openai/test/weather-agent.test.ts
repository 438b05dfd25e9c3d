import { describeOpenAIRequest, startFakeOpenAI } from '@adk/fake-provider-servers';
import { weatherAgentAcceptance } from '@adk/fake-provider-servers/acceptance';

import { createOpenAI } from '../src';

weatherAgentAcceptance({
  provider: 'OpenAI',
  startServer: startFakeOpenAI,
  describeRequest: describeOpenAIRequest,
  createModel: (baseURL) => createOpenAI({ apiKey: 'test-key', baseURL })('openai/gpt-4o'),
});
