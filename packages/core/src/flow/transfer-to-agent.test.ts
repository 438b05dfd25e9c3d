import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { LlmAgent } from '../agents/llm-agent';
import { SequentialAgent } from '../agents/sequential-agent';
import { getText, modelContent, userContent } from '../content';
import { createEvent, type Event } from '../events';
import { Runner } from '../runner/runner';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import { transferTargets } from './transfer-to-agent-tool';

const TRANSFER_FOOTER =
  "To transfer to an agent, call the transfer_to_agent tool with the agent's name.";
const TRANSFER_HEADER =
  'You can delegate tasks to the following agents using the transfer_to_agent tool:';

/** The router example of the context-compilation design (router -> weather, news). */
function routerExample() {
  const routerModel = new FakeModel({
    name: 'router-model',
    strict: true,
    responses: [fakeFunctionCall('transfer_to_agent', { agent_name: 'weather' }, 'r1')],
  });
  const weatherModel = new FakeModel({
    name: 'weather-model',
    strict: true,
    responses: [
      fakeFunctionCall('get_weather', { city: 'Paris' }, 'w1'),
      'It is sunny and 21°C in Paris.',
      'Tomorrow brings rain.',
    ],
  });
  const newsModel = new FakeModel({ name: 'news-model', strict: true });
  const getWeather = new FunctionTool({
    name: 'get_weather',
    description: 'Current weather of a city.',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => ({ city, forecast: 'sunny', celsius: 21 }),
  });
  const getNews = new FunctionTool({
    name: 'get_news',
    description: 'Latest headlines on a topic.',
    parameters: z.object({ topic: z.string() }),
    execute: ({ topic }) => ({ topic, headlines: [] }),
  });
  const weather = new LlmAgent({
    name: 'weather',
    model: weatherModel,
    instruction: 'You handle weather queries.',
    description: 'Handles weather-related questions',
    tools: [getWeather],
  });
  const news = new LlmAgent({
    name: 'news',
    model: newsModel,
    instruction: 'You handle news queries.',
    description: 'Handles news-related questions',
    tools: [getNews],
  });
  const router = new LlmAgent({
    name: 'router',
    model: routerModel,
    instruction: 'Route requests to the right specialist.',
    subAgents: [weather, news],
  });
  return { router, routerModel, weatherModel, newsModel };
}

async function collect(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('transfer: the router example', () => {
  it('compiles the exact instructions and tools, transfers, and keeps the next turn with the specialist', async () => {
    const { router, routerModel, weatherModel, newsModel } = routerExample();
    const runner = new Runner({ appName: 'router-app', agent: router, autoCreateSession: true });
    const turn1 = await collect(
      runner.run({
        userId: 'u',
        sessionId: 's',
        newMessage: userContent('What is the weather in Paris?'),
      }),
    );
    expect(turn1.map((e) => e.author)).toEqual([
      'router',
      'router',
      'weather',
      'weather',
      'weather',
    ]);
    expect(turn1[1]?.actions.transferToAgent).toBe('weather');
    expect(getText(turn1.at(-1)?.content)).toBe('It is sunny and 21°C in Paris.');

    // The router's only model call.
    expect(routerModel.requests).toHaveLength(1);
    const routerRequest = routerModel.requests[0]!;
    expect(routerRequest.systemInstruction).toBe(
      [
        'You are router.',
        'Route requests to the right specialist.',
        [
          TRANSFER_HEADER,
          '- weather: Handles weather-related questions',
          '- news: Handles news-related questions',
          TRANSFER_FOOTER,
        ].join('\n'),
      ].join('\n\n'),
    );
    expect(routerRequest.config.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'transfer_to_agent',
            description:
              'Hand the conversation to another agent that is better suited to answer. Use only the agent names listed.',
            parameters: {
              type: 'object',
              properties: {
                agent_name: {
                  type: 'string',
                  enum: ['weather', 'news'],
                  description: 'Name of the agent to transfer to.',
                },
              },
              required: ['agent_name'],
            },
          },
        ],
      },
    ]);

    // Every weather call: same instruction and tools.
    const weatherInstruction = [
      'You are weather. Handles weather-related questions',
      'You handle weather queries.',
      [
        TRANSFER_HEADER,
        '- router (your parent agent)',
        '- news: Handles news-related questions',
        TRANSFER_FOOTER,
      ].join('\n'),
    ].join('\n\n');
    const weatherTools = [
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Current weather of a city.',
            parameters: {
              type: 'object',
              properties: { city: { type: 'string' } },
              required: ['city'],
            },
          },
          expect.objectContaining({
            name: 'transfer_to_agent',
            parameters: expect.objectContaining({
              properties: { agent_name: expect.objectContaining({ enum: ['router', 'news'] }) },
            }),
          }),
        ],
      },
    ];
    expect(weatherModel.requests).toHaveLength(2);
    for (const request of weatherModel.requests) {
      expect(request.systemInstruction).toBe(weatherInstruction);
      expect(request.config.tools).toEqual(weatherTools);
    }
    // The specialist sees the router's hand-over as context, not as its own words.
    expect(weatherModel.requests[0]!.contents).toEqual([
      { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
      {
        role: 'user',
        parts: [
          { text: 'For context:' },
          {
            text: '[router] called tool `transfer_to_agent` with parameters: {"agent_name":"weather"}',
          },
        ],
      },
      {
        role: 'user',
        parts: [
          { text: 'For context:' },
          {
            text: '[router] tool `transfer_to_agent` returned result: {"transferred_to":"weather"}',
          },
        ],
      },
    ]);

    // Second turn: straight to the specialist, the router is not called again.
    const turn2 = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('And tomorrow?') }),
    );
    expect(turn2.map((e) => e.author)).toEqual(['weather']);
    expect(getText(turn2[0]?.content)).toBe('Tomorrow brings rain.');
    expect(routerModel.requests).toHaveLength(1);
    expect(weatherModel.requests).toHaveLength(3);
    expect(weatherModel.requests[2]!.systemInstruction).toBe(weatherInstruction);
    expect(weatherModel.requests[2]!.contents.at(-1)).toEqual({
      role: 'user',
      parts: [{ text: 'And tomorrow?' }],
    });
    expect(newsModel.requests).toHaveLength(0);
    routerModel.assertAllConsumed();
    weatherModel.assertAllConsumed();
  });
});

describe('transfer: allowed targets', () => {
  it('refuses a transfer to a forbidden peer at execution, and the model sees why', async () => {
    const aModel = new FakeModel({ strict: true, responses: ['never'] });
    const bModel = new FakeModel({
      strict: true,
      responses: [
        fakeFunctionCall('transfer_to_agent', { agent_name: 'a' }, 't1'),
        'I will answer myself.',
      ],
    });
    const a = new LlmAgent({ name: 'a', model: aModel, description: 'Agent A' });
    const b = new LlmAgent({ name: 'b', model: bModel, disallowTransferToPeers: true });
    const root = new LlmAgent({
      name: 'root',
      model: new FakeModel({ strict: true }),
      subAgents: [a, b],
    });
    expect(transferTargets(b).map((t) => t.name)).toEqual(['root']);

    const runner = new Runner({ appName: 'app', agent: root, autoCreateSession: true });
    const session = await runner.sessionService.createSession({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
    });
    // Start the conversation with b (as if root had transferred earlier).
    await runner.sessionService.appendEvent({
      session,
      event: createEvent({ invocationId: 'i0', author: 'b', content: modelContent('Hi, b here.') }),
    });
    const events = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('go to a') }),
    );
    expect(events.map((e) => e.author)).toEqual(['b', 'b', 'b']);
    const refusal = events[1]?.content?.parts[0]?.functionResponse;
    expect(refusal?.response).toEqual({
      error: {
        code: 'TRANSFER_NOT_ALLOWED',
        message: 'Agent "b" cannot transfer to "a". Allowed targets: root.',
      },
    });
    expect(events[1]?.actions.transferToAgent).toBeUndefined();
    expect(aModel.requests).toHaveLength(0);
    expect(
      bModel.requests[0]?.config.tools?.[0]?.functionDeclarations[0]?.parameters,
    ).toMatchObject({
      properties: { agent_name: { enum: ['root'] } },
    });
    expect(bModel.requests[1]?.contents.at(-1)?.parts[0]?.functionResponse?.response).toEqual(
      refusal?.response,
    );
  });

  it('gives no transfer tool to an agent without targets, nor parent/peers below a workflow agent', async () => {
    const model = new FakeModel({ strict: true, responses: ['done'] });
    const solo = new LlmAgent({ name: 'solo', model });
    const step = new LlmAgent({ name: 'step', model: new FakeModel() });
    new SequentialAgent({ name: 'pipeline', subAgents: [step, new LlmAgent({ name: 'other' })] });
    expect(transferTargets(step)).toEqual([]);
    const runner = new Runner({ appName: 'app', agent: solo, autoCreateSession: true });
    await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('hi') }));
    expect(model.requests[0]?.config.tools).toBeUndefined();
    expect(model.requests[0]?.systemInstruction).toBe('You are solo.');
  });

  it('lets a specialist hand back to its parent, which then answers', async () => {
    const rootModel = new FakeModel({
      strict: true,
      responses: [
        fakeFunctionCall('transfer_to_agent', { agent_name: 'child' }, 'a'),
        'Root answers.',
      ],
    });
    const childModel = new FakeModel({
      strict: true,
      responses: [fakeFunctionCall('transfer_to_agent', { agent_name: 'root' }, 'b')],
    });
    const child = new LlmAgent({ name: 'child', model: childModel });
    const root = new LlmAgent({ name: 'root', model: rootModel, subAgents: [child] });
    const runner = new Runner({ appName: 'app', agent: root, autoCreateSession: true });
    const events = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('hi') }),
    );
    expect(
      events.map((e) => `${e.author}:${e.actions.transferToAgent ?? getText(e.content)}`),
    ).toEqual(['root:', 'root:child', 'child:', 'child:root', 'root:Root answers.']);
  });

  it('sends the next message to the root when the last specialist may not hand back', async () => {
    const rootModel = new FakeModel({
      strict: true,
      responses: [
        fakeFunctionCall('transfer_to_agent', { agent_name: 'closed' }, 'a'),
        'Root again.',
      ],
    });
    const closedModel = new FakeModel({ strict: true, responses: ['Closed answers once.'] });
    const closed = new LlmAgent({
      name: 'closed',
      model: closedModel,
      disallowTransferToParent: true,
    });
    const root = new LlmAgent({ name: 'root', model: rootModel, subAgents: [closed] });
    const runner = new Runner({ appName: 'app', agent: root, autoCreateSession: true });
    await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('one') }));
    const second = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('two') }),
    );
    expect(second.map((e) => e.author)).toEqual(['root']);
    expect(getText(second[0]?.content)).toBe('Root again.');
    expect(closedModel.requests).toHaveLength(1);
  });
});
