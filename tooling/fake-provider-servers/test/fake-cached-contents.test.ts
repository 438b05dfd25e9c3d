import { GoogleGenAI } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';

import { startFakeGemini, type FakeGeminiServer } from '../src';

let server: FakeGeminiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const longText = 'The handbook of the support team. '.repeat(40);

describe('fake Gemini cachedContents, through @google/genai', () => {
  it('creates, gets, lists, uses and deletes a cache as caches.* and generateContent expect', async () => {
    server = await startFakeGemini({ script: [{ text: 'From the cache.' }] });
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.url } });
    const cache = await ai.caches.create({
      model: 'gemini-2.5-flash',
      config: {
        contents: [{ role: 'user', parts: [{ text: longText }] }],
        systemInstruction: 'Answer from the handbook.',
        ttl: '300s',
        displayName: 'handbook',
      },
    });
    expect(cache.name).toMatch(/^cachedContents\/\w+$/);
    expect(cache.model).toBe('models/gemini-2.5-flash');
    expect(cache.displayName).toBe('handbook');
    expect(Date.parse(cache.expireTime!)).toBeGreaterThan(Date.now() + 200_000);
    const tokens = cache.usageMetadata?.totalTokenCount;
    expect(tokens).toBeGreaterThan(300);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1beta/cachedContents',
      body: { model: 'models/gemini-2.5-flash', ttl: '300s' },
    });

    expect((await ai.caches.get({ name: cache.name! })).name).toBe(cache.name);
    const listed = [];
    for await (const item of await ai.caches.list()) listed.push(item.name);
    expect(listed).toEqual([cache.name]);

    const answer = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'What does the handbook say?',
      config: { cachedContent: cache.name! },
    });
    expect(answer.text).toBe('From the cache.');
    expect(answer.usageMetadata?.cachedContentTokenCount).toBe(tokens);
    expect(answer.usageMetadata?.promptTokenCount).toBe(12 + tokens!);

    await ai.caches.delete({ name: cache.name! });
    expect(server.cachedContents()).toEqual([]);
    await expect(ai.caches.get({ name: cache.name! })).rejects.toMatchObject({ status: 403 });
  });

  it('refuses what the API refuses: an unknown cache, a cache beside a system instruction, a small cache', async () => {
    server = await startFakeGemini({ script: [], cachedContentMinTokens: 1000 });
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.url } });
    await expect(
      ai.models.generateContent({
        model: 'gemini-2.5-flash',
        contents: 'hi',
        config: { cachedContent: 'cachedContents/missing' },
      }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      ai.caches.create({
        model: 'gemini-2.5-flash',
        config: { contents: [{ role: 'user', parts: [{ text: 'short' }] }], ttl: '60s' },
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('too small') });
    const cache = await ai.caches.create({
      model: 'gemini-2.5-flash',
      config: { contents: [{ role: 'user', parts: [{ text: longText.repeat(3) }] }], ttl: '60s' },
    });
    await expect(
      ai.models.generateContent({
        model: 'gemini-2.5-flash',
        contents: 'hi',
        config: { cachedContent: cache.name!, systemInstruction: 'Be brief.' },
      }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('system_instruction'),
    });
    // No scripted reply was consumed by the refused calls.
    expect(server.pending).toBe(0);
  });
});
