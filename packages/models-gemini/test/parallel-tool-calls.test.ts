import { describeGeminiRequest, startFakeGemini } from '@adk/fake-provider-servers';
import { parallelToolCallsAcceptance } from '@adk/fake-provider-servers/acceptance';

import { createGemini } from '../src';

parallelToolCallsAcceptance({
  provider: 'Gemini',
  startServer: startFakeGemini,
  describeRequest: describeGeminiRequest,
  createModel: (baseURL) => createGemini({ apiKey: 'test-key', baseURL })('gemini-2.5-flash'),
});

parallelToolCallsAcceptance({
  provider: 'Gemini (streamFunctionCallArguments)',
  startServer: startFakeGemini,
  describeRequest: describeGeminiRequest,
  createModel: (baseURL) =>
    createGemini({ apiKey: 'test-key', baseURL, streamFunctionCallArguments: true })(
      'gemini-3-pro-preview',
    ),
});
