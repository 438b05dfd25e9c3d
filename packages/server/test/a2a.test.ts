import { A2aClient, contentToA2aMessage, RemoteA2aAgent, Role, type Task } from '@adk/a2a';
import {
  getText,
  InMemorySessionService,
  LlmAgent,
  Runner,
  userContent,
  type Content,
  type LlmRequest,
} from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { afterEach, describe, expect, it } from 'vitest';

import { createAdkServer, listen, type AdkServerOptions, type RunningServer } from '../src';

let running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.map((server) => server.close()));
  running = [];
});

/** The last user text the model was given. */
function lastUserText(request: LlmRequest): string {
  const last = [...request.contents].reverse().find((content) => content.role === 'user');
  return last ? getText(last as Content) : '';
}

function echoAgent(name: string) {
  return new LlmAgent({
    name,
    description: `The ${name} app.`,
    model: new FakeModel({ responses: (request) => `${name} heard: ${lastUserText(request)}` }),
  });
}

async function start(options: Partial<AdkServerOptions> = {}) {
  const sessionService = new InMemorySessionService();
  const app = createAdkServer({
    apps: { alpha: { agent: echoAgent('alpha') }, beta: { agent: echoAgent('beta') } },
    sessionService,
    a2a: true,
    ...options,
  });
  const server = await listen(app, { port: 0 });
  running.push(server);
  return { server, sessionService };
}

function sendBody(text: string, contextId?: string) {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: {
      message: {
        kind: 'message',
        messageId: crypto.randomUUID(),
        role: 'user',
        parts: [{ kind: 'text', text }],
        ...(contextId ? { contextId } : {}),
      },
    },
  };
}

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** The answer of a task in the 0.3 wire format (what a request without `A2A-Version` gets). */
interface WireTask {
  contextId: string;
  status: { state: string };
  artifacts?: { parts: { kind: string; text?: string }[] }[];
}
function answerOf(task: WireTask): string {
  const part = task.artifacts?.[0]?.parts[0];
  return part?.kind === 'text' ? (part.text ?? '') : '';
}

/** The answer of an A2A 1.0 task. */
function answerOfTask(task: Task): string {
  const part = task.artifacts[0]?.parts[0];
  return part?.content?.$case === 'text' ? part.content.value : '';
}

describe('A2A routes of the API server', () => {
  it('serves each app its own agent card naming its endpoint under /a2a/<app>', async () => {
    const { server } = await start();
    for (const name of ['alpha', 'beta']) {
      const response = await fetch(`${server.url}/a2a/${name}/.well-known/agent-card.json`);
      expect(response.status).toBe(200);
      const card = (await response.json()) as Record<string, unknown>;
      expect(card).toMatchObject({
        name,
        description: `The ${name} app.`,
        url: `${server.url}/a2a/${name}`,
        capabilities: { streaming: true },
      });
      expect(card.security).toBeUndefined();
      const legacy = await fetch(`${server.url}/a2a/${name}/.well-known/agent.json`);
      expect(await legacy.json()).toEqual(card);
    }
    expect((await fetch(`${server.url}/a2a/gamma/.well-known/agent-card.json`)).status).toBe(404);
  });

  it('is off unless asked for', async () => {
    const { server } = await start({ a2a: false });
    expect((await fetch(`${server.url}/a2a/alpha/.well-known/agent-card.json`)).status).toBe(404);
    expect((await post(`${server.url}/a2a/alpha`, sendBody('hi'))).status).toBe(404);
  });

  it('runs message/send on the app runner and stores the conversation as a session of the app', async () => {
    const { server, sessionService } = await start();
    const first = await post(`${server.url}/a2a/beta`, sendBody('hello'));
    const { result: task } = (await first.json()) as { result: WireTask };
    expect(task.status.state).toBe('completed');
    expect(answerOf(task)).toBe('beta heard: hello');

    const second = await post(`${server.url}/a2a/beta`, sendBody('again', task.contextId));
    const { result: next } = (await second.json()) as { result: WireTask };
    expect(answerOf(next)).toBe('beta heard: again');
    expect(next.contextId).toBe(task.contextId);

    const userId = `A2A_USER_${task.contextId}`;
    const listed = await fetch(`${server.url}/apps/beta/users/${userId}/sessions`);
    expect(((await listed.json()) as { id: string }[]).map((s) => s.id)).toEqual([task.contextId]);
    const session = await fetch(
      `${server.url}/apps/beta/users/${userId}/sessions/${task.contextId}`,
    );
    const body = (await session.json()) as { events: { author: string; content: Content }[] };
    expect(body.events.map((e) => [e.author, getText(e.content)])).toEqual([
      ['user', 'hello'],
      ['beta', 'beta heard: hello'],
      ['user', 'again'],
      ['beta', 'beta heard: again'],
    ]);
    // The debug traces of the server cover A2A runs too.
    const trace = await fetch(`${server.url}/debug/trace/session/${task.contextId}`);
    const spans = (await trace.json()) as { name: string }[];
    expect(spans.map((span) => span.name)).toContain('call_llm');
    // Nothing went to the other app.
    const other = await sessionService.listSessions({ appName: 'alpha', userId });
    expect(other.sessions).toEqual([]);
  });

  it('lets a RemoteA2aAgent of @adk/a2a converse with an app, one remote session for two turns', async () => {
    const { server, sessionService } = await start();
    const remote = new RemoteA2aAgent({
      name: 'alpha_remote',
      agentCard: `${server.url}/a2a/alpha`,
    });
    const local = new Runner({ appName: 'local', agent: remote, autoCreateSession: true });
    const answers: string[] = [];
    for (const text of ['one', 'two']) {
      for await (const event of local.run({
        userId: 'u1',
        sessionId: 's1',
        newMessage: userContent(text),
      })) {
        if (!event.partial && event.content && event.author === 'alpha_remote')
          answers.push(getText(event.content));
      }
    }
    expect(answers).toEqual(['alpha heard: one', 'alpha heard: two']);
    const localSession = await local.sessionService.getSession({
      appName: 'local',
      userId: 'u1',
      sessionId: 's1',
    });
    const contextId = localSession?.state['a2a:alpha_remote:contextId'] as string;
    const stored = await sessionService.getSession({
      appName: 'alpha',
      userId: `A2A_USER_${contextId}`,
      sessionId: contextId,
    });
    expect(stored?.events.filter((e) => e.author === 'alpha')).toHaveLength(2);
    await local.close();
  });

  it('requires the bearer token on the A2A routes when the server has one, and the card says so', async () => {
    const { server } = await start({ token: 'sesame' });
    const cardUrl = `${server.url}/a2a/alpha/.well-known/agent-card.json`;
    expect((await fetch(cardUrl)).status).toBe(401);
    const refused = await post(`${server.url}/a2a/alpha`, sendBody('hi'));
    expect(refused.status).toBe(401);
    const wrong = await post(`${server.url}/a2a/alpha`, sendBody('hi'), {
      authorization: 'Bearer nope',
    });
    expect(wrong.status).toBe(401);

    const client = await A2aClient.fromUrl(`${server.url}/a2a/alpha`, {
      headers: { authorization: 'Bearer sesame' },
    });
    expect(client.card.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
    const task = await client.sendMessage({
      message: contentToA2aMessage(userContent('with token'), Role.ROLE_USER)!,
    });
    expect(answerOfTask(task as Task)).toBe('alpha heard: with token');
  });

  it('applies the server body limit to the A2A endpoint, answering 413 with a JSON-RPC error', async () => {
    const { server, sessionService } = await start({ maxBodyBytes: 2_000 });
    const response = await post(`${server.url}/a2a/alpha`, sendBody('x'.repeat(5_000)));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    const small = await post(`${server.url}/a2a/alpha`, sendBody('small'));
    const { result } = (await small.json()) as { result: WireTask };
    expect(answerOf(result)).toBe('alpha heard: small');
    expect(
      (
        await sessionService.listSessions({
          appName: 'alpha',
          userId: `A2A_USER_${result.contextId}`,
        })
      ).sessions,
    ).toHaveLength(1);
  });

  it('refuses, with an InvalidArgumentError, an app whose runner is not a core Runner, and a root base path', async () => {
    const sessionService = new InMemorySessionService();
    const foreign = {
      agent: echoAgent('foreign'),
      // eslint-disable-next-line require-yield
      async *run() {
        return;
      },
    };
    const build = (options: Partial<AdkServerOptions>) => () =>
      createAdkServer({
        apps: { alpha: { agent: echoAgent('alpha') } },
        sessionService,
        ...options,
      });
    expect(build({ apps: { foreign: { runner: foreign } }, a2a: true })).toThrow(
      expect.objectContaining({
        name: 'InvalidArgumentError',
        message: expect.stringMatching(/foreign.*A2A/),
      }),
    );
    await build({ apps: { foreign: { runner: foreign } } })().close(); // fine without A2A
    expect(build({ a2a: { basePath: '/' } })).toThrow(
      expect.objectContaining({ name: 'InvalidArgumentError' }),
    );
  });

  it('takes a base path and card overrides', async () => {
    const { server } = await start({
      a2a: { basePath: '/agents/', agentCards: { alpha: { version: '2.0.0' } } },
    });
    const card = await (
      await fetch(`${server.url}/agents/alpha/.well-known/agent-card.json`)
    ).json();
    expect(card).toMatchObject({
      name: 'alpha',
      version: '2.0.0',
      url: `${server.url}/agents/alpha`,
    });
    expect((await fetch(`${server.url}/a2a/alpha/.well-known/agent-card.json`)).status).toBe(404);
  });
});
