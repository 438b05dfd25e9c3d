import { getText, InMemorySessionService, LlmAgent, type Event } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { afterEach, describe, expect, it } from 'vitest';

import { createAdkServer, listen, type RunningServer } from '../src';
import { scriptedRunner } from './helpers';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${server!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('POST /apps/{app}/users/{user}/sessions/{id}/rewind', () => {
  it('rewinds with the app’s runner: state restored, the model no longer sees the turn', async () => {
    const model = new FakeModel({ responses: (_request, index) => `answer ${index}` });
    const agent = new LlmAgent({ name: 'assistant', model, outputKey: 'last_answer' });
    server = await listen(
      createAdkServer({
        apps: { helpdesk: { agent, autoCreateSession: true } },
        sessionService: new InMemorySessionService(),
      }),
      { port: 0 },
    );
    const run = async (text: string) => {
      const response = await post('/run', {
        app_name: 'helpdesk',
        user_id: 'u1',
        session_id: 's1',
        new_message: { role: 'user', parts: [{ text }] },
      });
      expect(response.status).toBe(200);
      return (await response.json()) as Event[];
    };
    await run('first');
    const second = await run('second');

    const rewound = await post('/apps/helpdesk/users/u1/sessions/s1/rewind', {
      rewind_before_invocation_id: second[0]!.invocationId,
    });
    expect(rewound.status).toBe(200);
    const session = (await rewound.json()) as { state: object; events: Event[] };
    expect(session.state).toEqual({ last_answer: 'answer 0' });
    expect(session.events.at(-1)?.actions.rewindBeforeInvocationId).toBe(second[0]!.invocationId);

    await run('third');
    expect(model.requests.at(-1)!.contents.map((content) => getText(content))).toEqual([
      'first',
      'answer 0',
      'third',
    ]);

    // camelCase is accepted too; an unknown invocation or session is a 404 naming it.
    const unknown = await post('/apps/helpdesk/users/u1/sessions/s1/rewind', {
      rewindBeforeInvocationId: 'nope',
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'INVOCATION_NOT_FOUND' });
    const missing = await post('/apps/helpdesk/users/u1/sessions/none/rewind', {
      rewind_before_invocation_id: 'x',
    });
    expect(missing.status).toBe(404);
    const empty = await post('/apps/helpdesk/users/u1/sessions/s1/rewind', {});
    expect(empty.status).toBe(400);
  });

  it('answers 501 for a runner of your own without rewind', async () => {
    const sessionService = new InMemorySessionService();
    await sessionService.createSession({ appName: 'custom', userId: 'u1', sessionId: 's1' });
    const runner = scriptedRunner(sessionService, 'custom', 'bot', async function* () {});
    server = await listen(
      createAdkServer({
        apps: { custom: { runner, agent: { name: 'bot', subAgents: [] } } },
        sessionService,
      }),
      { port: 0 },
    );
    const response = await post('/apps/custom/users/u1/sessions/s1/rewind', {
      rewind_before_invocation_id: 'x',
    });
    expect(response.status).toBe(501);
  });
});
