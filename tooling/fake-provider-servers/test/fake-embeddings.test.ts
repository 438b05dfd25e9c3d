import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';

import { startFakeGemini, startFakeOpenAI, type FakeProviderServer } from '../src';

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

// The official SDKs are the judges of the fakes' wire format: if they parse the answers, a real
// client would.
describe('fake embedding endpoints, read by the official SDKs', () => {
  it('Gemini (@google/genai): batchEmbedContents with task type and dimensions', async () => {
    server = await startFakeGemini();
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.url } });
    const response = await ai.models.embedContent({
      model: 'gemini-embedding-001',
      contents: [
        'The user is building a billing service',
        'my payments project',
        'The cat sleeps on the sofa',
      ],
      config: { taskType: 'RETRIEVAL_DOCUMENT', outputDimensionality: 128 },
    });
    const vectors = response.embeddings!.map((e) => e.values!);
    expect(vectors.map((v) => v.length)).toEqual([128, 128, 128]);
    expect(cosine(vectors[0]!, vectors[1]!)).toBeGreaterThan(0.6);
    expect(cosine(vectors[0]!, vectors[2]!)).toBeLessThan(0.2);
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(request.headers['x-goog-api-key']).toBe('test-key');
    expect((request.body as { requests: unknown[] }).requests[0]).toMatchObject({
      model: 'models/gemini-embedding-001',
      taskType: 'RETRIEVAL_DOCUMENT',
      outputDimensionality: 128,
    });
  });

  it('Gemini (@google/genai): an error in the API error shape reaches the SDK as its ApiError', async () => {
    server = await startFakeGemini({ embeddingFaults: [{ status: 400, message: 'bad input' }] });
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.url } });
    await expect(
      ai.models.embedContent({ model: 'gemini-embedding-001', contents: ['x'] }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('bad input') });
  });

  it('OpenAI (openai): embeddings.create, base64 floats decoded by the SDK, usage', async () => {
    server = await startFakeOpenAI();
    const client = new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 });
    const response = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['The user is building a billing service', 'my payments project', 'a sunny day'],
      dimensions: 64,
    });
    // The SDK asked for base64 and decoded it: the floats match the float answer exactly.
    expect(server.requests[0]!.body).toMatchObject({ encoding_format: 'base64', dimensions: 64 });
    const floats = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'my payments project',
      dimensions: 64,
      encoding_format: 'float',
    });
    const vectors = response.data.map((d) => d.embedding);
    expect(response.data.map((d) => d.index)).toEqual([0, 1, 2]);
    expect(vectors[1]!.map((x) => Math.fround(x))).toEqual(
      floats.data[0]!.embedding.map((x) => Math.fround(x)),
    );
    expect(cosine(vectors[0]!, vectors[1]!)).toBeGreaterThan(0.6);
    expect(cosine(vectors[0]!, vectors[2]!)).toBeLessThan(0.2);
    expect(response.usage.prompt_tokens).toBeGreaterThan(0);
    expect(response.model).toBe('text-embedding-3-small');
  });

  it('OpenAI (openai): refuses an empty input with a 400 the SDK raises as BadRequestError', async () => {
    server = await startFakeOpenAI();
    const client = new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 });
    const error = await client.embeddings
      .create({ model: 'text-embedding-3-small', input: [''] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  });
});
