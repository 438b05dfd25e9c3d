// Call the agent served by examples/serve.ts from another process: once with the client, once as
// the sub-agent of a local agent.
import { getText, LlmAgent, Runner, userContent } from '@adk/core';
import { FakeModel, fakeFunctionCall } from '@adk/core/testing';

import {
  A2aClient,
  RemoteA2aAgent,
  Role,
  TaskState,
  contentToA2aMessage,
  type A2aPart,
} from '@adk/a2a';

const url = process.env.A2A_URL ?? 'http://127.0.0.1:9000';
const text = (parts: A2aPart[] = []) =>
  parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');

// 1. The client: stream one message (A2A 1.0 with this server; 0.3 with an agent that only speaks 0.3).
const client = await A2aClient.fromUrl(url);
console.log(
  `card: ${client.card.name} — ${client.card.description} (A2A ${client.protocolVersion})`,
);
const message = contentToA2aMessage(userContent('How many CAD for 1 USD?'), Role.ROLE_USER)!;
for await (const event of client.streamMessage({ message })) {
  const payload = event.payload;
  if (payload?.$case === 'statusUpdate') {
    console.log(`  status: ${TaskState[payload.value.status?.state ?? 0]}`);
  }
  if (payload?.$case === 'artifactUpdate')
    console.log(`  answer: ${text(payload.value.artifact?.parts)}`);
}

// 2. The remote agent as a sub-agent: the local model transfers to it.
const currency = new RemoteA2aAgent({
  name: 'currency',
  description: 'Converts currencies.',
  agentCard: url,
});
const root = new LlmAgent({
  name: 'assistant',
  model: new FakeModel({
    responses: () => fakeFunctionCall('transfer_to_agent', { agent_name: 'currency' }),
  }),
  subAgents: [currency],
});
const runner = new Runner({ appName: 'caller', agent: root, autoCreateSession: true });
for (const text of ['How many CAD for 1 USD?', 'And in USD again?']) {
  for await (const event of runner.run({
    userId: 'u1',
    sessionId: 's1',
    newMessage: userContent(text),
  })) {
    if (!event.partial && event.author === 'currency') {
      console.log(`${event.author}: ${getText(event.content) || event.errorMessage}`);
    }
  }
}
