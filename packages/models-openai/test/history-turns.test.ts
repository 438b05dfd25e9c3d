import { describeOpenAITurns, startFakeOpenAI } from '@adk/fake-provider-servers';
import { historyTurnsAcceptance } from '@adk/fake-provider-servers/acceptance';

import { createOpenAI } from '../src';

historyTurnsAcceptance({
  provider: 'OpenAI',
  startServer: startFakeOpenAI,
  describeTurns: describeOpenAITurns,
  createModel: (baseURL) => createOpenAI({ apiKey: 'test-key', baseURL })('openai/gpt-4o'),
});
