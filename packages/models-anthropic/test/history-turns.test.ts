import { describeAnthropicTurns, startFakeAnthropic } from '@adk/fake-provider-servers';
import { historyTurnsAcceptance } from '@adk/fake-provider-servers/acceptance';

import { createAnthropic } from '../src';

historyTurnsAcceptance({
  provider: 'Anthropic',
  startServer: startFakeAnthropic,
  describeTurns: describeAnthropicTurns,
  createModel: (baseURL) => createAnthropic({ apiKey: 'test-key', baseURL })('claude-sonnet-4-5'),
});
