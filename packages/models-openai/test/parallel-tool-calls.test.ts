import { describeOpenAIRequest, startFakeOpenAI } from '@adk/fake-provider-servers';
import { parallelToolCallsAcceptance } from '@adk/fake-provider-servers/acceptance';

import { createOpenAI } from '../src';

parallelToolCallsAcceptance({
  provider: 'OpenAI',
  startServer: startFakeOpenAI,
  describeRequest: describeOpenAIRequest,
  createModel: (baseURL) => createOpenAI({ apiKey: 'test-key', baseURL })('gpt-4o'),
});
