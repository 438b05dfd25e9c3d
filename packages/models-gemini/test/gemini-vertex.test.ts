import { getText } from '@adk/core';
import { startFakeGemini, type FakeProviderServer } from '@adk/fake-provider-servers';
import { ask, collect } from '@adk/fake-provider-servers/acceptance';
import { afterEach, describe, expect, it } from 'vitest';

import { createGemini, MissingApiKeyError } from '../src';
import { defaultBaseURL } from '../src/gemini-endpoint';

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('Gemini on Vertex AI', () => {
  it('calls the project endpoint with a fresh OAuth token per request and sends labels', async () => {
    server = await startFakeGemini({ script: [{ text: 'one' }, { text: 'two' }] });
    let issued = 0;
    const gemini = createGemini({
      baseURL: `${server.url}/v1`,
      vertexai: {
        project: 'my-proj',
        location: 'europe-west4',
        accessToken: async () => `tok-${++issued}`,
      },
    });
    const model = gemini('gemini-2.5-flash');
    const [first] = await collect(
      model.generate(ask('x', { config: { labels: { team: 'search' } } }), { stream: false }),
    );
    const streamed = await collect(model.generate(ask('y'), { stream: true }));
    expect(getText(first!.content)).toBe('one');
    expect(getText(streamed.at(-1)!.content)).toBe('two');
    expect(
      server.requests.map((r) => [r.path, r.headers.authorization, r.headers['x-goog-api-key']]),
    ).toEqual([
      [
        '/v1/projects/my-proj/locations/europe-west4/publishers/google/models/gemini-2.5-flash:generateContent',
        'Bearer tok-1',
        undefined,
      ],
      [
        '/v1/projects/my-proj/locations/europe-west4/publishers/google/models/gemini-2.5-flash:streamGenerateContent',
        'Bearer tok-2',
        undefined,
      ],
    ]);
    expect((server.requests[0]!.body as { labels?: unknown }).labels).toEqual({ team: 'search' });
  });

  it('uses express mode with an API key when there is no access token', async () => {
    server = await startFakeGemini({ script: [{ text: 'ok' }] });
    const model = createGemini({
      apiKey: 'vertex-key',
      baseURL: `${server.url}/v1`,
      vertexai: true,
    })('gemini-2.5-flash');
    await collect(model.generate(ask('x'), { stream: false }));
    expect(server.requests[0]!.path).toBe(
      '/v1/publishers/google/models/gemini-2.5-flash:generateContent',
    );
    expect(server.requests[0]!.headers['x-goog-api-key']).toBe('vertex-key');
  });

  it('a token without a project is a typed error at call time', async () => {
    const saved = process.env.GOOGLE_CLOUD_PROJECT;
    delete process.env.GOOGLE_CLOUD_PROJECT;
    try {
      const model = createGemini({ vertexai: { accessToken: 't' } })('gemini-2.5-flash');
      const error = await collect(model.generate(ask('x'), { stream: false })).catch(
        (e: unknown) => e,
      );
      expect(MissingApiKeyError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('vertexai.project');
    } finally {
      if (saved !== undefined) process.env.GOOGLE_CLOUD_PROJECT = saved;
    }
  });

  it('picks the regional, global or express host', () => {
    expect(defaultBaseURL(undefined)).toBe('https://generativelanguage.googleapis.com/v1beta');
    expect(defaultBaseURL({ location: 'us-east5', accessToken: 't' })).toBe(
      'https://us-east5-aiplatform.googleapis.com/v1',
    );
    expect(defaultBaseURL({ location: 'global', accessToken: 't' })).toBe(
      'https://aiplatform.googleapis.com/v1',
    );
    expect(defaultBaseURL(true)).toBe('https://aiplatform.googleapis.com/v1');
  });

  it('reads GOOGLE_GEMINI_BASE_URL (the server root, as @google/genai does) for the Gemini API', async () => {
    server = await startFakeGemini({ script: [{ text: 'from the fake server' }] });
    const root = server.baseURL.replace(/\/v1beta$/, '');
    process.env.GOOGLE_GEMINI_BASE_URL = `${root}/`;
    try {
      expect(defaultBaseURL(undefined)).toBe(`${root}/v1beta`);
      const model = createGemini({ apiKey: 'k' })('gemini-2.5-flash');
      const responses = await collect(model.generate(ask('hi'), { stream: false }));
      expect(getText(responses.at(-1)?.content)).toBe('from the fake server');
      expect(defaultBaseURL(true)).toBe('https://aiplatform.googleapis.com/v1');
    } finally {
      delete process.env.GOOGLE_GEMINI_BASE_URL;
    }
  });
});
