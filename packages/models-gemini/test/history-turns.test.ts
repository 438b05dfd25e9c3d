import { describeGeminiTurns, startFakeGemini } from '@adk/fake-provider-servers';
import { historyTurnsAcceptance } from '@adk/fake-provider-servers/acceptance';

import { createGemini } from '../src';

historyTurnsAcceptance({
  provider: 'Gemini',
  startServer: startFakeGemini,
  describeTurns: describeGeminiTurns,
  createModel: (baseURL) => createGemini({ apiKey: 'test-key', baseURL })('gemini-2.5-flash'),
});
