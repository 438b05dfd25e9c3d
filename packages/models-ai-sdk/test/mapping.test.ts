import { InvalidArgumentError, LlmAgent, Runner, userContent, type Event } from '@adk/core';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';

import { aiSdkModel, type AiSdkLanguageModel } from '../src';
import { toUsage } from '../src/from-result';

describe('aiSdkModel', () => {
  it('refuses what is not a v2, v3 or v4 language model', () => {
    expect(() => aiSdkModel({ specificationVersion: 'v1' } as never)).toThrow(InvalidArgumentError);
    expect(() => aiSdkModel({} as never)).toThrow(/specification v2, v3 or v4/);
  });

  it('maps usage of both shapes, cache reads and reasoning included', () => {
    expect(
      toUsage({
        inputTokens: 10,
        outputTokens: 4,
        totalTokens: 14,
        cachedInputTokens: 6,
        reasoningTokens: 2,
      }),
    ).toEqual({
      promptTokenCount: 10,
      candidatesTokenCount: 4,
      totalTokenCount: 14,
      cachedContentTokenCount: 6,
      thoughtsTokenCount: 2,
    });
    expect(
      toUsage({
        inputTokens: { total: 10, noCache: 4, cacheRead: 6, cacheWrite: 0 },
        outputTokens: { total: 4, text: 2, reasoning: 2 },
      }),
    ).toEqual({
      promptTokenCount: 10,
      candidatesTokenCount: 4,
      totalTokenCount: 14,
      cachedContentTokenCount: 6,
      thoughtsTokenCount: 2,
    });
  });

  it('runs an agent turn: reasoning as thoughts, the system instruction and settings sent, usage on the event', async () => {
    const mock = new MockLanguageModelV3({
      doStream: {
        stream: new ReadableStream({
          start(controller) {
            for (const part of [
              { type: 'stream-start', warnings: [] },
              { type: 'reasoning-start', id: 'r' },
              { type: 'reasoning-delta', id: 'r', delta: 'The user greets.' },
              { type: 'reasoning-end', id: 'r' },
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: 'Hello' },
              { type: 'text-delta', id: 't', delta: '!' },
              { type: 'text-end', id: 't' },
              {
                type: 'finish',
                finishReason: { unified: 'stop', raw: 'stop' },
                usage: {
                  inputTokens: { total: 20, noCache: 5, cacheRead: 15, cacheWrite: 0 },
                  outputTokens: { total: 9, text: 3, reasoning: 6 },
                },
              },
            ]) {
              controller.enqueue(part as never);
            }
            controller.close();
          },
        }),
      },
    });
    const agent = new LlmAgent({
      name: 'greeter',
      model: aiSdkModel(mock as unknown as AiSdkLanguageModel),
      instruction: 'Be brief.',
      generateContentConfig: { temperature: 0.2, maxOutputTokens: 50 },
    });
    const runner = new Runner({ appName: 'ai-sdk', agent, autoCreateSession: true });
    const events: Event[] = [];
    for await (const event of runner.run({
      userId: 'u',
      sessionId: 's',
      newMessage: userContent('Hi'),
      runConfig: { streamingMode: 'sse' },
    })) {
      events.push(event);
    }
    const final = events.at(-1)!;
    expect(final.content?.parts).toEqual([
      { text: 'The user greets.', thought: true },
      { text: 'Hello!' },
    ]);
    expect(final.usageMetadata).toMatchObject({
      cachedContentTokenCount: 15,
      thoughtsTokenCount: 6,
    });
    const sent = mock.doStreamCalls[0]!;
    expect(sent.prompt[0]).toEqual({
      role: 'system',
      content: expect.stringContaining('Be brief.'),
    });
    expect(sent.temperature).toBe(0.2);
    expect(sent.maxOutputTokens).toBe(50);
    expect(events.filter((event) => event.partial).length).toBeGreaterThan(1);
  });
});
