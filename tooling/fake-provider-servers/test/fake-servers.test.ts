import { request } from 'node:http';

import { afterEach, describe, expect, it } from 'vitest';

import {
  startFakeAnthropic,
  startFakeGemini,
  startFakeOpenAI,
  type FakeProviderServer,
} from '../src';

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** POSTs JSON with node:http and returns status, headers and the raw body text. */
function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>(
    (resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(body));
    },
  );
}

describe('fake provider servers', () => {
  it('Gemini: streams function-call arguments in partialArgs pieces when the request asks', async () => {
    const args = { city: 'Paris', days: 2, tags: ['a b', null], ok: true };
    server = await startFakeGemini({
      script: [{ toolCalls: [{ name: 'get_weather', args }], argsChunkSize: 3 }],
    });
    const { text } = await post(
      `${server.baseURL}/models/gemini-3-pro-preview:streamGenerateContent?alt=sse`,
      {
        contents: [{ role: 'user', parts: [{ text: 'x' }] }],
        tools: [{ functionDeclarations: [{ name: 'get_weather' }] }],
        toolConfig: { functionCallingConfig: { streamFunctionCallArguments: true } },
      },
    );
    const calls = text
      .split('\r\n\r\n')
      .filter(Boolean)
      .map((frame) => JSON.parse(frame.slice('data: '.length)))
      .map((chunk) => chunk.candidates[0].content.parts[0].functionCall);
    expect(calls).toEqual([
      { name: 'get_weather', willContinue: true },
      {
        partialArgs: [{ jsonPath: '$.city', stringValue: 'Par', willContinue: true }],
        willContinue: true,
      },
      { partialArgs: [{ jsonPath: '$.city', stringValue: 'is' }], willContinue: true },
      { partialArgs: [{ jsonPath: '$.days', numberValue: 2 }], willContinue: true },
      { partialArgs: [{ jsonPath: '$.tags[0]', stringValue: 'a b' }], willContinue: true },
      { partialArgs: [{ jsonPath: '$.tags[1]', nullValue: 'NULL_VALUE' }], willContinue: true },
      { partialArgs: [{ jsonPath: '$.ok', boolValue: true }], willContinue: true },
      {},
    ]);
  });

  it('Gemini: records requests and answers generateContent and SSE with CRLF frames', async () => {
    server = await startFakeGemini({ script: [{ text: 'Hello world again' }, { text: 'Hi' }] });
    const plain = await post(
      `${server.baseURL}/models/gemini-2.5-flash:generateContent`,
      { contents: [] },
      { 'x-goog-api-key': 'k' },
    );
    expect(JSON.parse(plain.text).candidates[0].content.parts).toEqual([
      { text: 'Hello world again' },
    ]);
    const streamed = await post(
      `${server.baseURL}/models/gemini-2.5-flash:streamGenerateContent?alt=sse`,
      { contents: [] },
    );
    expect(streamed.headers['content-type']).toBe('text/event-stream');
    expect(streamed.text.startsWith('data: ')).toBe(true);
    expect(streamed.text.endsWith('\r\n\r\n')).toBe(true);
    expect(server.requests.map((r) => [r.model, r.stream, r.headers['x-goog-api-key']])).toEqual([
      ['gemini-2.5-flash', false, 'k'],
      ['gemini-2.5-flash', true, undefined],
    ]);
    expect(server.pending).toBe(0);
  });

  it('answers in each provider error shape, with Retry-After, when the script says so or runs out', async () => {
    server = await startFakeAnthropic({ script: [{ error: { status: 429, retryAfter: '5' } }] });
    const limited = await post(`${server.baseURL}/messages`, { model: 'claude-x', messages: [] });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('5');
    expect(JSON.parse(limited.text)).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error' },
    });
    const exhausted = await post(`${server.baseURL}/messages`, { model: 'claude-x', messages: [] });
    expect(exhausted.status).toBe(500);
    expect(JSON.parse(exhausted.text).error.message).toContain('no scripted reply left');
    await server.close();

    server = await startFakeOpenAI();
    const missing = await post(`${server.url}/v1/audio/speech`, {});
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toMatchObject({
      error: { type: 'invalid_request_error', code: 'model_not_found' },
    });
  });

  it('OpenAI: sends usage in a last chunk with empty choices only when include_usage is asked', async () => {
    server = await startFakeOpenAI({ script: () => ({ text: 'Hi' }) });
    const withUsage = await post(`${server.baseURL}/chat/completions`, {
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
    });
    const frames = withUsage.text
      .trim()
      .split('\n\n')
      .map((f) => f.replace(/^data: /, ''));
    expect(frames.at(-1)).toBe('[DONE]');
    const last = JSON.parse(frames.at(-2)!);
    expect(last.choices).toEqual([]);
    expect(last.usage.total_tokens).toBe(20);
    const withoutUsage = await post(`${server.baseURL}/chat/completions`, {
      model: 'gpt-4o',
      stream: true,
    });
    expect(withoutUsage.text).not.toContain('"usage"');
  });

  it('push and setScript change what comes next', async () => {
    server = await startFakeOpenAI();
    server.push({ text: 'first' });
    expect(server.pending).toBe(1);
    server.setScript((req) => ({ text: `echo ${(req.body as { model: string }).model}` }));
    const answer = await post(`${server.baseURL}/chat/completions`, { model: 'm1', messages: [] });
    expect(JSON.parse(answer.text).choices[0].message.content).toBe('echo m1');
  });
});
