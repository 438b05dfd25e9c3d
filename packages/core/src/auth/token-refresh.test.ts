import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startTokenServer } from '../../test/token-server';

import { LlmAgent } from '../agents/llm-agent';
import { userContent } from '../content';
import type { Event } from '../events';
import { Runner } from '../runner/runner';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import { credentialKeyOf, type AuthConfig } from './auth-config';
import type { AuthCredential } from './auth-credential';
import { REQUEST_CREDENTIAL_FUNCTION_NAME } from '../flow/credential-request';
import { InMemoryCredentialService } from './in-memory-credential-service';

async function collect(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

let token: Awaited<ReturnType<typeof startTokenServer>>;
beforeEach(async () => {
  token = await startTokenServer();
});
afterEach(async () => {
  await new Promise((resolve) => token.server.close(resolve));
});

const authFor = (tokenUrl: string): AuthConfig => ({
  authScheme: {
    type: 'oauth2',
    flows: {
      authorizationCode: {
        authorizationUrl: 'https://accounts.example.com/auth',
        tokenUrl,
        scopes: { calendar: 'Read your calendar' },
      },
    },
  },
  rawAuthCredential: { authType: 'oauth2', oauth2: { clientId: 'app', clientSecret: 's3cret' } },
});

/** A calendar tool that reads its OAuth2 token with `getCredential`, asking when there is none. */
function calendarApp(auth: AuthConfig) {
  const credentialService = new InMemoryCredentialService();
  const seen: (string | undefined)[] = [];
  const calendar = new FunctionTool({
    name: 'list_events',
    description: 'List calendar events.',
    execute: async (_args, ctx) => {
      const credential = await ctx.getCredential(auth);
      seen.push(credential?.oauth2?.accessToken);
      if (!credential) {
        ctx.requestCredential(auth);
        return { status: 'Waiting for the user to sign in.' };
      }
      return { token: credential.oauth2?.accessToken };
    },
  });
  const model = new FakeModel({
    responses: (request) => {
      const last = request.contents.at(-1)?.parts[0];
      if (last?.text !== undefined)
        return fakeFunctionCall('list_events', {}, `c${request.contents.length}`);
      return `Result: ${JSON.stringify(last?.functionResponse?.response)}`;
    },
  });
  const runner = new Runner({
    appName: 'cal',
    agent: new LlmAgent({ name: 'assistant', model, tools: [calendar] }),
    credentialService,
    autoCreateSession: true,
  });
  const address = { appName: 'cal', userId: 'u', credentialKey: credentialKeyOf(auth) };
  const turn = (sessionId: string) =>
    collect(runner.run({ userId: 'u', sessionId, newMessage: userContent('my day?') }));
  return { seen, credentialService, address, turn };
}

const stored = (refreshToken: string, expiresAt: number): AuthCredential => ({
  authType: 'oauth2',
  oauth2: { accessToken: 'at-1', refreshToken, expiresAt, expiresIn: 3600 },
});

describe('getCredential with an expired OAuth2 access token', () => {
  it('refreshes it at the token URL, saves the new tokens and uses them on later turns', async () => {
    const app = calendarApp(authFor(token.url));
    await app.credentialService.saveCredential({
      ...app.address,
      credential: stored('rt-1', Math.floor(Date.now() / 1000) - 5),
    });
    const first = await app.turn('s1');
    expect(first.at(-1)?.content?.parts[0]?.text).toContain('"token":"at-2"');
    expect(token.seen.map((request) => request.body.get('grant_type'))).toEqual(['refresh_token']);
    const saved = await app.credentialService.loadCredential(app.address);
    expect(saved?.oauth2).toMatchObject({ accessToken: 'at-2', refreshToken: 'rt-2' });
    expect(saved!.oauth2!.expiresAt!).toBeGreaterThan(Date.now() / 1000 + 3000);
    await app.turn('s2');
    expect(app.seen).toEqual(['at-2', 'at-2']);
    expect(token.seen).toHaveLength(1);
  });

  it('leaves a token that has not expired alone', async () => {
    const app = calendarApp(authFor(token.url));
    await app.credentialService.saveCredential({
      ...app.address,
      credential: stored('rt-1', Math.floor(Date.now() / 1000) + 3600),
    });
    await app.turn('s1');
    expect(app.seen).toEqual(['at-1']);
    expect(token.seen).toHaveLength(0);
  });

  it('answers a refused refresh with CREDENTIAL_EXCHANGE_FAILED, forgets it, then asks the user', async () => {
    const app = calendarApp(authFor(token.url));
    await app.credentialService.saveCredential({
      ...app.address,
      credential: stored('revoked', 1),
    });
    const first = await app.turn('s1');
    const response = first.find((event) => event.content?.parts[0]?.functionResponse);
    expect(response?.content?.parts[0]?.functionResponse?.response).toMatchObject({
      error: { code: 'CREDENTIAL_EXCHANGE_FAILED' },
    });
    expect(await app.credentialService.loadCredential(app.address)).toBeUndefined();
    const second = await app.turn('s1');
    expect(app.seen).toEqual([undefined]);
    expect(second.at(-1)?.content?.parts[0]?.functionCall?.name).toBe(
      REQUEST_CREDENTIAL_FUNCTION_NAME,
    );
  });
});
