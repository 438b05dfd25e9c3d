import { describe, expect, it } from 'vitest';

import { makeContext } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import type { LlmResponse } from '../models';
import { modelResponseEvent, RESPONSE_KEYS } from './flow-events';

/** Every member of an `LlmResponse` but `content` is in RESPONSE_KEYS (checked when type-checking). */
type Uncopied = Exclude<keyof LlmResponse, 'content' | (typeof RESPONSE_KEYS)[number]>;
const everyMemberCopied: [Uncopied] extends [never] ? true : Uncopied = true;

describe('modelResponseEvent', () => {
  const agent = new LlmAgent({ name: 'helper' });

  it('copies every member of the response, in the order of RESPONSE_KEYS', async () => {
    expect(everyMemberCopied).toBe(true);
    const ctx = await makeContext(agent, { branch: 'root.helper' });
    const response: LlmResponse = {
      // Members listed in an order unlike RESPONSE_KEYS': the event's order must not follow it.
      goAway: { timeLeftMs: 500 },
      liveSessionResumptionUpdate: { newHandle: 'h1', resumable: true },
      outputTranscription: { text: 'said', finished: true },
      inputTranscription: { text: 'heard' },
      cacheMetadata: { fingerprint: 'f', contentsCount: 2 },
      customMetadata: { a: 1 },
      citationMetadata: { citations: [{ uri: 'https://example.com' }] },
      groundingMetadata: { webSearchQueries: ['q'] },
      modelVersion: 'v1',
      interrupted: false,
      errorMessage: 'message',
      errorCode: 'CODE',
      usageMetadata: { totalTokenCount: 3 },
      finishReason: 'STOP',
      turnComplete: true,
      partial: false,
      content: { role: 'model', parts: [{ text: 'hi' }] },
    };
    const event = modelResponseEvent(ctx, 'helper', response, undefined, new Map());
    expect(Object.keys(event)).toEqual([
      'id',
      'invocationId',
      'author',
      'timestamp',
      'actions',
      'branch',
      'content',
      ...RESPONSE_KEYS,
    ]);
    for (const key of RESPONSE_KEYS) expect(event[key]).toBe(response[key]);
    expect(event.content).toBe(response.content);
  });

  it('leaves out members that are undefined, one at a time', async () => {
    const ctx = await makeContext(agent);
    const full: LlmResponse = {
      partial: true,
      turnComplete: false,
      finishReason: 'MAX_TOKENS',
      usageMetadata: {},
      errorCode: 'E',
      errorMessage: 'm',
      interrupted: true,
      modelVersion: 'v',
      groundingMetadata: {},
      citationMetadata: {},
      customMetadata: {},
      inputTranscription: {},
      outputTranscription: {},
      liveSessionResumptionUpdate: {},
      goAway: {},
      cacheMetadata: { fingerprint: 'f', contentsCount: 1 },
    };
    for (const missing of RESPONSE_KEYS) {
      const event = modelResponseEvent(
        ctx,
        'helper',
        { ...full, [missing]: undefined },
        undefined,
        new Map(),
      );
      expect(Object.keys(event)).toEqual([
        'id',
        'invocationId',
        'author',
        'timestamp',
        'actions',
        ...RESPONSE_KEYS.filter((key) => key !== missing),
      ]);
      expect(JSON.parse(JSON.stringify(event))).toEqual(event);
    }
  });
});
