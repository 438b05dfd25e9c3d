// Serve an agent over A2A on http://127.0.0.1:9000 (offline: the model is scripted).
// Run: pnpm --filter @adk/a2a example:serve   then, in another terminal: pnpm --filter @adk/a2a example:call
import { z } from 'zod';

import { FunctionTool, getText, LlmAgent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';

import { createA2aServer, listenA2a } from '@adk/a2a';

const getRate = new FunctionTool({
  name: 'get_exchange_rate',
  description: 'Exchange rate between two currencies.',
  parameters: z.object({ from: z.string(), to: z.string() }),
  execute: ({ from, to }) => ({ from, to, rate: 1.43 }),
});

// Calls the tool for a question, then answers with its result.
const model = new FakeModel({
  responses: (request) => {
    const last = request.contents.at(-1)?.parts[0];
    if (last?.functionResponse)
      return `1 USD is ${String(last.functionResponse.response.rate)} CAD.`;
    const question = getText(request.contents.at(-1));
    return question.includes('USD')
      ? { functionCalls: [{ name: 'get_exchange_rate', args: { from: 'USD', to: 'CAD' } }] }
      : 'Ask me about USD.';
  },
});

const agent = new LlmAgent({
  name: 'currency',
  description: 'Converts currencies.',
  model,
  tools: [getRate],
});

const server = await listenA2a(createA2aServer({ agent }), { port: 9000 });
console.log(
  `A2A agent "currency" at ${server.url} (card: ${server.url}/.well-known/agent-card.json)`,
);
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
