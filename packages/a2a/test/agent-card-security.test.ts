/**
 * The agent card of a server with `security`, as clients read it: the 1.0 card in the
 * specification's JSON form (each scheme keyed by its kind), read back by the official SDK's card
 * resolver; and the 0.3 card of the same server.
 */
import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { afterEach, describe, expect, it } from 'vitest';

import { createA2aServer, listenA2a } from '../src';
import { echoAgent } from './helpers';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

async function securedServer(): Promise<string> {
  const app = createA2aServer({
    agent: echoAgent().agent,
    security: { bearer: 'token', apiKey: { header: 'X-Key', key: 'key' } },
  });
  const server = await listenA2a(app, { port: 0 });
  closers.push(() => server.close());
  return server.url;
}

describe('the agent card of a server with security', () => {
  it('is written in the 1.0 JSON form, which the SDK 1.3 client reads back whole', async () => {
    const url = await securedServer();
    const response = await fetch(`${url}/.well-known/agent-card.json`, {
      headers: { 'A2A-Version': '1.0' },
    });
    const json = (await response.json()) as Record<string, unknown>;
    expect(json.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: { description: 'A bearer token.', scheme: 'bearer' } },
      apiKey: {
        apiKeySecurityScheme: { description: 'An API key.', location: 'header', name: 'X-Key' },
      },
    });
    expect(JSON.stringify(json)).not.toContain('$case');
    expect(json.securityRequirements).toEqual([
      { schemes: { bearer: { list: [] } } },
      { schemes: { apiKey: { list: [] } } },
    ]);
    // The rest of the card keeps its fields, empty lists included.
    expect(json).toMatchObject({ name: 'echo', skills: expect.any(Array) });

    const card = await new DefaultAgentCardResolver().resolve(url);
    expect(card.securitySchemes.bearer?.scheme).toEqual({
      $case: 'httpAuthSecurityScheme',
      value: { description: 'A bearer token.', scheme: 'bearer', bearerFormat: '' },
    });
    expect(card.securitySchemes.apiKey?.scheme).toMatchObject({
      $case: 'apiKeySecurityScheme',
      value: { location: 'header', name: 'X-Key' },
    });
  });

  it('is written in the 0.3 form for a 0.3 client', async () => {
    const url = await securedServer();
    const legacy = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as {
      securitySchemes: unknown;
      security: unknown;
    };
    expect(legacy.securitySchemes).toMatchObject({
      bearer: { type: 'http', scheme: 'bearer' },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-Key' },
    });
    expect(legacy.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
  });
});
