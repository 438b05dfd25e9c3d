import {
  InMemorySessionService,
  LiveRequestQueue,
  LlmAgent,
  Runner,
  type Event,
  type Tool,
} from '@adk/core';
import { startFakeOpenAIRealtime } from '@adk/fake-provider-servers';
import { expect, it } from 'vitest';

import { createOpenAI } from '../src';
import { mic16k } from './realtime-helpers';

it('holds a voice turn with a tool call through Runner.runLive on the Realtime API', async () => {
  const server = await startFakeOpenAIRealtime({
    chunkDelayMs: 2,
    inputTranscripts: ['Weather in Paris?'],
    script: [
      {
        callsFirst: true,
        calls: [{ name: 'get_weather', args: { city: 'Paris' } }],
        audioMs: 200,
        transcript: 'Let me check.',
        usage: { inputTokens: 10, outputTokens: 5 },
      },
      { audioMs: 120, transcript: 'Sunny in Paris.', usage: { inputTokens: 20, outputTokens: 6 } },
    ],
  });
  try {
    const calls: string[] = [];
    const tool: Tool = {
      name: 'get_weather',
      description: 'The weather of a city.',
      declaration: () => ({
        name: 'get_weather',
        description: 'The weather of a city.',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
        },
      }),
      run: async (args) => {
        const city = String((args as { city?: unknown }).city);
        calls.push(city);
        return { city, sky: 'sunny' };
      },
    };
    const openai = createOpenAI({ apiKey: 'test-key', baseURL: server.baseURL });
    const agent = new LlmAgent({
      name: 'voice',
      model: openai('gpt-realtime'),
      instruction: 'Be brief.',
      tools: [tool],
    });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'voice', agent, sessionService });
    const session = await sessionService.createSession({ appName: 'voice', userId: 'u' });
    const liveRequests = new LiveRequestQueue();
    const events: Event[] = [];
    const done = (async () => {
      for await (const event of runner.runLive({
        userId: 'u',
        sessionId: session.id,
        liveRequests,
        runConfig: {
          responseModalities: ['AUDIO'],
          inputAudioTranscription: {},
          outputAudioTranscription: {},
        },
      })) {
        events.push(event);
      }
    })();
    for (let i = 0; i < 11; i += 1) {
      await liveRequests.sendRealtime({ mimeType: 'audio/pcm;rate=16000', data: mic16k(20) });
    }
    await expect.poll(() => events.some((event) => event.turnComplete)).toBe(true);
    liveRequests.close();
    await done;

    // Audio reached the caller as partial events; the tool ran once, mid-conversation.
    expect(
      events.some((event) => event.partial && event.content?.parts[0]?.inlineData !== undefined),
    ).toBe(true);
    expect(calls).toEqual(['Paris']);
    const stored = (await sessionService.getSession({
      appName: 'voice',
      userId: 'u',
      sessionId: session.id,
    }))!;
    const texts = stored.events.flatMap((event) =>
      (event.content?.parts ?? []).flatMap((part) =>
        part.text ? [`${event.author}: ${part.text}`] : [],
      ),
    );
    // The conversation reads back as text: what the user said and both spoken answers.
    expect(texts).toEqual(
      expect.arrayContaining([
        'user: Weather in Paris?',
        'voice: Let me check.',
        'voice: Sunny in Paris.',
      ]),
    );
    const parts = stored.events.flatMap((event) => event.content?.parts ?? []);
    expect(parts.some((part) => part.functionCall?.name === 'get_weather')).toBe(true);
    expect(parts.some((part) => part.functionResponse?.name === 'get_weather')).toBe(true);
    // No audio is stored, and the turn's usage is on its turnComplete event.
    expect(parts.some((part) => part.inlineData)).toBe(false);
    const completed = stored.events.filter((event) => event.turnComplete);
    expect(completed).toHaveLength(1);
    expect(completed[0]!.usageMetadata?.promptTokenCount).toBe(30);
    // The tool's output went back on the connection before the second response.
    const sent = server.connections[0]!.events.map((event) => event.type);
    expect(sent).toContain('conversation.item.create');
    expect(sent.filter((type) => type === 'response.create').length).toBeGreaterThanOrEqual(1);
  } finally {
    await server.close();
  }
});
