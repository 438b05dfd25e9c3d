import { CONTINUE_TURN_TEXT, type LlmRequest, type LlmResponse } from '@adk/core';
import { describe, expect, it } from 'vitest';

import { DemoModel } from './demo-model';
import { planDemoResponse } from './demo-planner';

const routerInstruction = [
  'You are router.',
  'You can delegate tasks to the following agents using the transfer_to_agent tool:',
  '- weather: Handles weather-related questions',
  '- news: Handles news-related questions',
].join('\n');
const transferDeclaration = {
  name: 'transfer_to_agent',
  description: 'Transfer the question to another agent.',
  parameters: {
    type: 'object',
    properties: { agent_name: { type: 'string', enum: ['weather', 'news'] } },
  },
};
const weatherDeclaration = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

function request(text: string, tools: object[], extra: LlmRequest['contents'] = []): LlmRequest {
  return {
    model: 'offline-demo',
    systemInstruction: routerInstruction,
    contents: [{ role: 'user', parts: [{ text }] }, ...extra],
    config: { tools: [{ functionDeclarations: tools as never }] },
  };
}

async function collect(stream: AsyncIterable<LlmResponse>) {
  const out: LlmResponse[] = [];
  for await (const response of stream) out.push(response);
  return out;
}

describe('offline demo model', () => {
  it('transfers a weather question to the weather specialist', () => {
    expect(
      planDemoResponse(request("What's the weather in Paris?", [transferDeclaration])),
    ).toEqual({
      kind: 'call',
      name: 'transfer_to_agent',
      args: { agent_name: 'weather' },
    });
    expect(planDemoResponse(request('Any news about space?', [transferDeclaration]))).toMatchObject(
      {
        args: { agent_name: 'news' },
      },
    );
  });

  it('calls its own tool with arguments taken from the question, after a relayed transfer', () => {
    const relayed = [
      {
        role: 'user',
        parts: [{ text: 'For context:' }, { text: '[router] called tool `transfer_to_agent`' }],
      },
    ];
    expect(
      planDemoResponse(
        request(
          'Is it raining in New York today?',
          [weatherDeclaration, transferDeclaration],
          relayed,
        ),
      ),
    ).toEqual({
      kind: 'call',
      name: 'get_weather',
      args: { city: 'New York' },
    });
  });

  it('answers from tool results and streams the answer word by word', async () => {
    const withResult = request(
      'Weather in Paris?',
      [weatherDeclaration],
      [
        {
          role: 'model',
          parts: [{ functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Paris' } } }],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'c1',
                name: 'get_weather',
                response: { city: 'Paris', condition: 'sunny' },
              },
            },
          ],
        },
      ],
    );
    const responses = await collect(
      new DemoModel({ wordDelayMs: 0 }).generate(withResult, { stream: true }),
    );
    const final = responses.at(-1)!;
    expect(final.partial).toBeUndefined();
    expect(final.content?.parts[0]?.text).toBe('From get_weather: city: Paris, condition: sunny.');
    const partials = responses.slice(0, -1);
    expect(partials.length).toBeGreaterThan(3);
    expect(partials.every((r) => r.partial)).toBe(true);
    expect(partials.map((r) => r.content?.parts[0]?.text).join('')).toBe(
      final.content?.parts[0]?.text,
    );
  });

  it('explains what it can do when nothing matches, and stops when aborted', async () => {
    const plan = planDemoResponse(request('Tell me a joke', [weatherDeclaration]));
    expect(plan).toMatchObject({ kind: 'answer' });
    expect((plan as { text: string }).text).toContain('get_weather');
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      collect(
        new DemoModel().generate(request('hi', []), { stream: true, signal: controller.signal }),
      ),
    ).rejects.toThrow('stop');
  });

  it("reads the user's request, not the turn the flow adds after the model's own last turn", () => {
    const plan = planDemoResponse(
      request(
        'What is the weather in Paris?',
        [weatherDeclaration],
        [
          { role: 'model', parts: [{ text: 'Let me see.' }] },
          { role: 'user', parts: [{ text: CONTINUE_TURN_TEXT }] },
        ],
      ),
    );
    expect(plan).toMatchObject({ kind: 'call', name: 'get_weather' });
  });
});
