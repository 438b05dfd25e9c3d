import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  credentialResponse,
  FunctionTool,
  InMemoryCredentialService,
  LlmAgent,
  REQUEST_CREDENTIAL_FUNCTION_NAME,
} from '@adk/core';
import type { AuthConfig, Event } from '@adk/core';
import { FakeModel, fakeFunctionCall } from '@adk/core/testing';
import { SqlSessionService } from '@adk/session-sql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createAdkServer, listen, type RunningServer } from '../src';
import { parseSse } from './helpers';

/** An OAuth2 token endpoint on 127.0.0.1 that trades the code `c0de` for the token `at-9`. */
async function startTokenEndpoint(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const ok = new URLSearchParams(raw).get('code') === 'c0de';
      response.statusCode = ok ? 200 : 400;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(ok ? { access_token: 'at-9' } : { error: 'invalid_grant' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`, server };
}

const calendarAuth = (tokenUrl: string): AuthConfig => ({
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

let dir: string;
let sessions: SqlSessionService;
let server: RunningServer;
let tokenEndpoint: { url: string; server: Server };

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'adk-server-auth-'));
  sessions = await SqlSessionService.fromUrl(`sqlite:${join(dir, 'sessions.db')}`, {
    autoMigrate: true,
  });
  tokenEndpoint = await startTokenEndpoint();
});
afterEach(async () => {
  await server.close();
  await sessions.close();
  await new Promise((resolve) => tokenEndpoint.server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('tool authentication over HTTP (the ADK web UI flow)', () => {
  it('passes adk_request_credential to the client and its answer back unchanged; the code is exchanged for a token', async () => {
    const auth = calendarAuth(tokenEndpoint.url);
    const tokens: (string | undefined)[] = [];
    const calendar = new FunctionTool({
      name: 'list_events',
      description: 'List calendar events.',
      execute: async (_args, ctx) => {
        const credential = await ctx.getCredential(auth);
        tokens.push(credential?.oauth2?.accessToken);
        if (!credential) {
          ctx.requestCredential(auth);
          return { status: 'pending sign-in' };
        }
        return { events: ['standup'] };
      },
    });
    const model = new FakeModel([fakeFunctionCall('list_events', {}, 'c1'), 'You have a standup.']);
    const agent = new LlmAgent({ name: 'assistant', model, tools: [calendar] });
    server = await listen(createAdkServer({ apps: { cal: { agent } }, sessionService: sessions }), {
      port: 0,
    });
    await post('/apps/cal/users/u1/sessions/s1', {});
    const run = (newMessage: unknown) =>
      post('/run_sse', {
        appName: 'cal',
        userId: 'u1',
        sessionId: 's1',
        newMessage,
        streaming: false,
      });

    const first = parseSse(
      await (await run({ role: 'user', parts: [{ text: 'my day?' }] })).text(),
    ) as Event[];
    const request = first.at(-1)!;
    const call = request.content?.parts[0]?.functionCall;
    expect(call?.name).toBe(REQUEST_CREDENTIAL_FUNCTION_NAME);
    expect(request.longRunningToolIds).toEqual([call?.id]);
    // What the web UI reads: args.authConfig.exchangedAuthCredential.oauth2.authUri, camelCase.
    const { authConfig } = call!.args as { authConfig: AuthConfig };
    const oauth2 = authConfig.exchangedAuthCredential!.oauth2!;
    expect(oauth2.authUri).toContain('https://accounts.example.com/auth?');
    expect(JSON.stringify(first)).not.toContain('s3cret');

    // The web UI's answer: the same authConfig with the callback URL.
    const answer = {
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: call!.id,
            name: REQUEST_CREDENTIAL_FUNCTION_NAME,
            response: {
              ...authConfig,
              exchangedAuthCredential: {
                ...authConfig.exchangedAuthCredential,
                oauth2: {
                  ...oauth2,
                  authResponseUri: `http://localhost:8000/oauth2callback?code=c0de&state=${oauth2.state}`,
                  redirectUri: 'http://localhost:8000/oauth2callback',
                },
              },
            },
          },
        },
      ],
    };
    const second = parseSse(await (await run(answer)).text()) as Event[];
    expect(tokens).toEqual([undefined, 'at-9']);
    expect(second.at(-1)?.content?.parts[0]?.text).toBe('You have a standup.');

    const stored = await sessions.getSession({ appName: 'cal', userId: 'u1', sessionId: 's1' });
    const storedRequest = stored!.events.find((event) => event.id === request.id)!;
    expect(storedRequest.content?.parts[0]?.functionCall?.args).toEqual(call!.args);
    const toolEvent = stored!.events.find(
      (event) => event.actions.requestedAuthConfigs?.c1 !== undefined,
    );
    expect(toolEvent?.actions.requestedAuthConfigs?.c1?.credentialKey).toBe(
      authConfig.credentialKey,
    );
  });

  it("keeps the credentials of every { agent } app in the server's credentialService", async () => {
    const credentials = new InMemoryCredentialService();
    const crmAuth: AuthConfig = {
      authScheme: { type: 'http', scheme: 'bearer' },
      credentialKey: 'crm',
    };
    const seen: Record<string, (string | undefined)[]> = { cal: [], mail: [] };
    const agentFor = (app: 'cal' | 'mail') => {
      const lookup = new FunctionTool({
        name: 'lookup',
        description: 'Look a customer up.',
        execute: async (_args, ctx) => {
          const credential = await ctx.getCredential(crmAuth);
          seen[app]!.push(credential?.http?.credentials.token);
          if (!credential) {
            ctx.requestCredential(crmAuth);
            return { status: 'pending sign-in' };
          }
          return { customer: 'ACME' };
        },
      });
      const model = new FakeModel({
        responses: (request) =>
          request.contents.at(-1)?.parts[0]?.text !== undefined
            ? fakeFunctionCall('lookup', {}, `l${request.contents.length}`)
            : 'Found ACME.',
      });
      return new LlmAgent({ name: `${app}_agent`, model, tools: [lookup] });
    };
    // A credential the user gave the mail app earlier, in the server's store.
    await credentials.saveCredential({
      appName: 'mail',
      userId: 'u1',
      credentialKey: 'crm',
      credential: { authType: 'http', http: { scheme: 'bearer', credentials: { token: 'm-1' } } },
    });
    server = await listen(
      createAdkServer({
        apps: {
          cal: { agent: agentFor('cal'), autoCreateSession: true },
          mail: { agent: agentFor('mail'), autoCreateSession: true },
        },
        sessionService: sessions,
        credentialService: credentials,
      }),
      { port: 0 },
    );
    const run = async (appName: string, sessionId: string, newMessage: unknown) =>
      parseSse(
        await (
          await post('/run_sse', { appName, userId: 'u1', sessionId, newMessage, streaming: false })
        ).text(),
      ) as Event[];
    const hello = { role: 'user', parts: [{ text: 'who is our customer?' }] };

    const mail = await run('mail', 'm', hello);
    expect(seen.mail).toEqual(['m-1']);
    expect(mail.at(-1)?.content?.parts[0]?.text).toBe('Found ACME.');

    const asked = await run('cal', 'c', hello);
    const call = asked.at(-1)?.content?.parts[0]?.functionCall;
    expect(call?.name).toBe(REQUEST_CREDENTIAL_FUNCTION_NAME);
    const { authConfig } = call!.args as { authConfig: AuthConfig };
    const answered = await run(
      'cal',
      'c',
      credentialResponse(call!.id!, {
        ...authConfig,
        exchangedAuthCredential: {
          authType: 'http',
          http: { scheme: 'bearer', credentials: { token: 'c-1' } },
        },
      }),
    );
    expect(seen.cal).toEqual([undefined, 'c-1']);
    expect(answered.at(-1)?.content?.parts[0]?.text).toBe('Found ACME.');
    const saved = await credentials.loadCredential({
      appName: 'cal',
      userId: 'u1',
      credentialKey: 'crm',
    });
    expect(saved?.http?.credentials.token).toBe('c-1');
  });
});
