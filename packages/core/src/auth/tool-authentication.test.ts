import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startTokenServer } from '../../test/token-server';

import { LlmAgent } from '../agents/llm-agent';
import { userContent } from '../content';
import type { Event } from '../events';
import { Runner } from '../runner/runner';
import { InMemorySessionService, type SessionService } from '../sessions';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import { credentialKeyOf, type AuthConfig } from './auth-config';
import type { AuthCredential } from './auth-credential';
import {
  credentialRequestCallId,
  credentialResponse,
  REQUEST_CREDENTIAL_FUNCTION_NAME,
  type CredentialRequestArgs,
} from '../flow/credential-request';
import type { CredentialService } from './credential-service';
import { InMemoryCredentialService } from './in-memory-credential-service';

async function collect(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const calendarAuth: AuthConfig = {
  authScheme: {
    type: 'oauth2',
    flows: {
      authorizationCode: {
        authorizationUrl: 'https://accounts.example.com/auth',
        tokenUrl: 'https://accounts.example.com/token',
        scopes: { calendar: 'Read your calendar' },
      },
    },
  },
  rawAuthCredential: { authType: 'oauth2', oauth2: { clientId: 'app', clientSecret: 's3cret' } },
};

const bearer = (token: string): AuthCredential => ({
  authType: 'oauth2',
  oauth2: { accessToken: token },
});

/** An agent with a calendar tool that needs an OAuth2 token. Each call builds a fresh Runner. */
function calendarApp(
  credentialService: CredentialService = new InMemoryCredentialService(),
  auth: AuthConfig = calendarAuth,
) {
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
      return { events: ['standup'], token: credential.oauth2?.accessToken };
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
  const agent = new LlmAgent({ name: 'assistant', model, tools: [calendar] });
  const sessionService: SessionService = new InMemorySessionService();
  const freshRunner = () =>
    new Runner({
      appName: 'cal',
      agent,
      sessionService,
      credentialService,
      autoCreateSession: true,
    });
  return { seen, model, freshRunner, sessionService, credentialService };
}

function requestCallOf(event: Event | undefined) {
  const call = event?.content?.parts[0]?.functionCall;
  expect(call?.name).toBe(REQUEST_CREDENTIAL_FUNCTION_NAME);
  return { id: call!.id!, args: call!.args as unknown as CredentialRequestArgs };
}

describe('tool authentication', () => {
  it('pauses with adk_request_credential, then a fresh Runner stores the answer and re-runs the call', async () => {
    const app = calendarApp();
    const first = await collect(
      app.freshRunner().run({ userId: 'u', sessionId: 's', newMessage: userContent('my day?') }),
    );
    expect(app.seen).toEqual([undefined]);
    const request = first.at(-1)!;
    const { id, args } = requestCallOf(request);
    expect(id).toBe(credentialRequestCallId('c1'));
    expect(request.longRunningToolIds).toEqual([id]);
    expect(args.functionCallId).toBe('c1');
    expect(args.authConfig.credentialKey).toBe(credentialKeyOf(calendarAuth));
    const authUri = new URL(args.authConfig.exchangedAuthCredential!.oauth2!.authUri!);
    expect(authUri.origin + authUri.pathname).toBe('https://accounts.example.com/auth');
    expect(authUri.searchParams.get('client_id')).toBe('app');
    expect(authUri.searchParams.get('scope')).toBe('calendar');
    expect(authUri.searchParams.get('state')).toBe(
      args.authConfig.exchangedAuthCredential!.oauth2!.state,
    );
    // The client secret never reaches the session.
    expect(JSON.stringify(first)).not.toContain('s3cret');
    expect(app.model.requests).toHaveLength(1);

    const answer = credentialResponse(id, {
      ...args.authConfig,
      exchangedAuthCredential: bearer('tok-1'),
    });
    const second = await collect(
      app.freshRunner().run({ userId: 'u', sessionId: 's', newMessage: answer }),
    );
    expect(app.seen).toEqual([undefined, 'tok-1']);
    const rerun = second.find((event) => event.content?.parts[0]?.functionResponse)!;
    expect(rerun.content?.parts[0]?.functionResponse).toMatchObject({
      id: 'c1',
      name: 'list_events',
      response: { events: ['standup'], token: 'tok-1' },
    });
    expect(second.at(-1)?.content?.parts[0]?.text).toBe(
      'Result: {"events":["standup"],"token":"tok-1"}',
    );
    expect(
      await app.credentialService.loadCredential({
        appName: 'cal',
        userId: 'u',
        credentialKey: credentialKeyOf(calendarAuth),
      }),
    ).toEqual(bearer('tok-1'));
    // Nothing of the credential went into state.
    const session = await app.sessionService.getSession({
      appName: 'cal',
      userId: 'u',
      sessionId: 's',
    });
    expect(JSON.stringify(session!.state)).not.toContain('tok-1');
  });

  it('never shows the credential protocol to the model', async () => {
    const app = calendarApp();
    const first = await collect(
      app.freshRunner().run({ userId: 'u', sessionId: 's', newMessage: userContent('my day?') }),
    );
    const { id, args } = requestCallOf(first.at(-1));
    await collect(
      app.freshRunner().run({
        userId: 'u',
        sessionId: 's',
        newMessage: credentialResponse(id, {
          ...args.authConfig,
          exchangedAuthCredential: bearer('t'),
        }),
      }),
    );
    const seenByModel = JSON.stringify(app.model.requests.map((request) => request.contents));
    expect(seenByModel).not.toContain(REQUEST_CREDENTIAL_FUNCTION_NAME);
    // The model sees the call once, answered by the re-run's response (not the provisional one).
    const lastRequest = app.model.requests.at(-1)!;
    const responses = lastRequest.contents.flatMap((content) =>
      content.parts.filter((part) => part.functionResponse).map((part) => part.functionResponse),
    );
    expect(responses).toHaveLength(1);
    expect(responses[0]?.response).toMatchObject({ token: 't' });
  });

  it('reuses the stored credential on a later turn and in another session, without asking', async () => {
    const app = calendarApp();
    await app.credentialService.saveCredential({
      appName: 'cal',
      userId: 'u',
      credentialKey: credentialKeyOf(calendarAuth),
      credential: bearer('saved'),
    });
    for (const sessionId of ['s1', 's2']) {
      const events = await collect(
        app.freshRunner().run({ userId: 'u', sessionId, newMessage: userContent('my day?') }),
      );
      expect(events.some((event) => event.longRunningToolIds?.length)).toBe(false);
      expect(events.at(-1)?.content?.parts[0]?.text).toContain('"token":"saved"');
    }
    expect(app.seen).toEqual(['saved', 'saved']);
  });

  it.each([
    ['no exchangedAuthCredential', {}],
    [
      'an OAuth2 credential without token or code',
      { exchangedAuthCredential: { authType: 'oauth2', oauth2: {} } },
    ],
    ['an unknown credential type', { exchangedAuthCredential: { authType: 'magic', apiKey: 'x' } }],
  ])(
    'answers %s with INVALID_CREDENTIAL_ANSWER, without running the tool or storing anything',
    async (_label, extra) => {
      const app = calendarApp();
      const first = await collect(
        app.freshRunner().run({ userId: 'u', sessionId: 's', newMessage: userContent('my day?') }),
      );
      const { id, args } = requestCallOf(first.at(-1));
      const { exchangedAuthCredential: _dropped, ...withoutCredential } = args.authConfig;
      const second = await collect(
        app.freshRunner().run({
          userId: 'u',
          sessionId: 's',
          newMessage: credentialResponse(id, { ...withoutCredential, ...extra } as AuthConfig),
        }),
      );
      expect(app.seen).toEqual([undefined]);
      const response = second.find((event) => event.content?.parts[0]?.functionResponse)!;
      expect(response.content?.parts[0]?.functionResponse).toMatchObject({
        id: 'c1',
        response: { error: { code: 'INVALID_CREDENTIAL_ANSWER' } },
      });
      expect(second.at(-1)?.content?.parts[0]?.text).toContain('INVALID_CREDENTIAL_ANSWER');
      expect(
        await app.credentialService.loadCredential({
          appName: 'cal',
          userId: 'u',
          credentialKey: credentialKeyOf(calendarAuth),
        }),
      ).toBeUndefined();
    },
  );

  describe('with the ADK web UI answer (the OAuth2 callback URL)', () => {
    let token: Awaited<ReturnType<typeof startTokenServer>>;
    beforeEach(async () => {
      token = await startTokenServer();
    });
    afterEach(async () => {
      await new Promise((resolve) => token.server.close(resolve));
    });
    const localAuth = (): AuthConfig => ({
      ...calendarAuth,
      authScheme: {
        type: 'oauth2',
        flows: {
          authorizationCode: {
            authorizationUrl: 'https://accounts.example.com/auth',
            tokenUrl: token.url,
            scopes: { calendar: 'Read your calendar' },
          },
        },
      },
    });
    /** What the web UI sends: the request's authConfig, echoed back with the callback URL. */
    const webUiAnswer = (id: string, authConfig: AuthConfig, code: string, state?: string) => ({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id,
            name: REQUEST_CREDENTIAL_FUNCTION_NAME,
            response: {
              ...authConfig,
              exchangedAuthCredential: {
                ...authConfig.exchangedAuthCredential,
                oauth2: {
                  ...authConfig.exchangedAuthCredential!.oauth2,
                  authResponseUri: `http://localhost:4200/oauth2callback?code=${code}&state=${state ?? authConfig.exchangedAuthCredential!.oauth2!.state}`,
                  redirectUri: 'http://localhost:4200/oauth2callback',
                },
              },
            } as unknown as Record<string, unknown>,
          },
        },
      ],
    });

    it('exchanges the code for tokens once, stores the tokens, and ignores a second answer', async () => {
      const auth = localAuth();
      const app = calendarApp(new InMemoryCredentialService(), auth);
      const first = await collect(
        app.freshRunner().run({ userId: 'u', sessionId: 's', newMessage: userContent('my day?') }),
      );
      const { id, args } = requestCallOf(first.at(-1));
      const answer = webUiAnswer(id, args.authConfig, 'good');
      const second = await collect(
        app.freshRunner().run({ userId: 'u', sessionId: 's', newMessage: answer }),
      );
      expect(app.seen).toEqual([undefined, 'at-1']);
      expect(second.at(-1)?.content?.parts[0]?.text).toContain('"token":"at-1"');
      expect(token.seen).toHaveLength(1);
      expect(token.seen[0]?.body.get('redirect_uri')).toBe('http://localhost:4200/oauth2callback');
      const stored = await app.credentialService.loadCredential({
        appName: 'cal',
        userId: 'u',
        credentialKey: credentialKeyOf(auth),
      });
      expect(stored?.oauth2).toMatchObject({ accessToken: 'at-1', refreshToken: 'rt-1' });
      expect(stored?.oauth2?.authCode).toBeUndefined();
      await collect(app.freshRunner().run({ userId: 'u', sessionId: 's', newMessage: answer }));
      // The model's next call ran the tool with the stored tokens; no second resume, no exchange.
      expect(app.seen).toEqual([undefined, 'at-1', 'at-1']);
      expect(token.seen).toHaveLength(1);
    });

    it("refuses a callback URL whose state is not the request's, before any exchange", async () => {
      const auth = localAuth();
      const app = calendarApp(new InMemoryCredentialService(), auth);
      const first = await collect(
        app.freshRunner().run({ userId: 'u', sessionId: 's', newMessage: userContent('my day?') }),
      );
      const { id, args } = requestCallOf(first.at(-1));
      const second = await collect(
        app.freshRunner().run({
          userId: 'u',
          sessionId: 's',
          newMessage: webUiAnswer(id, args.authConfig, 'good', 'forged-state'),
        }),
      );
      const response = second.find((event) => event.content?.parts[0]?.functionResponse)!;
      const error = (
        response.content?.parts[0]?.functionResponse?.response as {
          error: { code: string; message: string };
        }
      ).error;
      expect(error.code).toBe('INVALID_CREDENTIAL_ANSWER');
      expect(error.message).toContain('state');
      expect(token.seen).toHaveLength(0);
      expect(app.seen).toEqual([undefined]);
    });

    it('answers a refused code with CREDENTIAL_EXCHANGE_FAILED and forgets it', async () => {
      const auth = localAuth();
      const app = calendarApp(new InMemoryCredentialService(), auth);
      const first = await collect(
        app.freshRunner().run({ userId: 'u', sessionId: 's', newMessage: userContent('my day?') }),
      );
      const { id, args } = requestCallOf(first.at(-1));
      const second = await collect(
        app.freshRunner().run({
          userId: 'u',
          sessionId: 's',
          newMessage: webUiAnswer(id, args.authConfig, 'stolen'),
        }),
      );
      const response = second.find((event) => event.content?.parts[0]?.functionResponse)!;
      expect(response.content?.parts[0]?.functionResponse?.response).toMatchObject({
        error: { code: 'CREDENTIAL_EXCHANGE_FAILED' },
      });
      expect(
        await app.credentialService.loadCredential({
          appName: 'cal',
          userId: 'u',
          credentialKey: credentialKeyOf(auth),
        }),
      ).toBeUndefined();
    });
  });

  it('resumes the sub-agent that asked, even one that cannot transfer back', async () => {
    const seen: (string | undefined)[] = [];
    const calendar = new FunctionTool({
      name: 'list_events',
      description: 'List calendar events.',
      execute: async (_args, ctx) => {
        const credential = await ctx.getCredential(calendarAuth);
        seen.push(credential?.oauth2?.accessToken);
        if (!credential) ctx.requestCredential(calendarAuth);
        return credential ? { events: ['standup'] } : { status: 'pending' };
      },
    });
    const specialist = new LlmAgent({
      name: 'calendar_agent',
      description: 'Calendar questions.',
      disallowTransferToParent: true,
      model: new FakeModel([fakeFunctionCall('list_events', {}, 'k1'), 'One standup.']),
      tools: [calendar],
    });
    const root = new LlmAgent({
      name: 'router',
      model: new FakeModel([
        fakeFunctionCall('transfer_to_agent', { agent_name: 'calendar_agent' }),
      ]),
      subAgents: [specialist],
    });
    const sessionService = new InMemorySessionService();
    const credentialService = new InMemoryCredentialService();
    const fresh = () =>
      new Runner({
        appName: 'cal',
        agent: root,
        sessionService,
        credentialService,
        autoCreateSession: true,
      });
    const first = await collect(
      fresh().run({ userId: 'u', sessionId: 's', newMessage: userContent('my day?') }),
    );
    const request = first.at(-1)!;
    expect(request.author).toBe('calendar_agent');
    const { id, args } = requestCallOf(request);
    const second = await collect(
      fresh().run({
        userId: 'u',
        sessionId: 's',
        newMessage: credentialResponse(id, {
          ...args.authConfig,
          exchangedAuthCredential: bearer('sub'),
        }),
      }),
    );
    expect(seen).toEqual([undefined, 'sub']);
    expect(second.at(-1)).toMatchObject({ author: 'calendar_agent' });
    expect(second.at(-1)?.content?.parts[0]?.text).toBe('One standup.');
  });

  it('costs nothing on turns that do not use it: no credential service call, no extra actions', async () => {
    const untouched: CredentialService = {
      loadCredential: () => Promise.reject(new Error('loadCredential called')),
      saveCredential: () => Promise.reject(new Error('saveCredential called')),
      deleteCredential: () => Promise.reject(new Error('deleteCredential called')),
    };
    const echo = new FunctionTool({
      name: 'echo',
      description: 'Echo.',
      execute: () => ({ ok: true }),
    });
    const model = new FakeModel({
      responses: [fakeFunctionCall('echo', {}, 'e1'), 'done'],
    });
    const agent = new LlmAgent({ name: 'plain', model, tools: [echo] });
    const runner = new Runner({
      appName: 'plain',
      agent,
      credentialService: untouched,
      autoCreateSession: true,
    });
    const events = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('hi') }),
    );
    expect(events.at(-1)?.content?.parts[0]?.text).toBe('done');
    for (const event of events) expect('requestedAuthConfigs' in event.actions).toBe(false);
  });
});
