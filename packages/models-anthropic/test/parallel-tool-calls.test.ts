import { describeAnthropicRequest, startFakeAnthropic } from '@adk/fake-provider-servers';
import { parallelToolCallsAcceptance } from '@adk/fake-provider-servers/acceptance';

import { createAnthropic } from '../src';

parallelToolCallsAcceptance({
  provider: 'Anthropic',
  startServer: startFakeAnthropic,
  describeRequest: describeAnthropicRequest,
  createModel: (baseURL) => createAnthropic({ apiKey: 'test-key', baseURL })('claude-sonnet-4-5'),
});
