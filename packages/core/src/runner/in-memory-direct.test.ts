import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

import { APP, collect, SESSION, USER } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { getText, userContent } from '../content';
import type { Event } from '../events';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import type { AppendEventRequest, GetSessionRequest } from '../sessions/session-service';
import type { Session } from '../sessions/session';
import type { LlmRequest, LlmResponse, Model } from '../models';
import { FunctionTool } from '../tools/function-tool';
import { Runner } from './runner';
import type { SessionLock } from './session-lock';

/** One tool call, then the answer: four stored events a turn (user, call, response, answer). */
function weatherRunner(sessionService: InMemorySessionService, sessionLock?: SessionLock): Runner {
  const tool = new FunctionTool({
    name: 'get_weather',
    description: 'Weather of a city.',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }: { city: string }) => ({ city, sky: 'clear' }),
  });
  const model: Model = {
    name: 'scripted',
    // Calls the tool, then answers once the tool's response is the last content: every turn.
    async *generate(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
      const last = request.contents[request.contents.length - 1];
      yield last?.parts.some((part) => part.functionResponse)
        ? { content: { role: 'model', parts: [{ text: 'Clear in Paris.' }] } }
        : {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }],
            },
          };
    },
  };
  const agent = new LlmAgent({ name: 'weather', model, instruction: 'Answer.', tools: [tool] });
  return new Runner({
    appName: APP,
    agent,
    sessionService,
    ...(sessionLock ? { sessionLock } : {}),
  });
}

function turn(runner: Runner, text: string): Promise<Event[]> {
  return collect(runner.run({ userId: USER, sessionId: SESSION, newMessage: userContent(text) }));
}

/** The stored conversation, as text a test can compare: author and what each event carries. */
async function stored(service: InMemorySessionService): Promise<string[]> {
  const session = await service.getSession({ appName: APP, userId: USER, sessionId: SESSION });
  return (session?.events ?? []).map((event) => {
    const part = event.content?.parts[0];
    const what = part?.functionCall?.name ?? part?.functionResponse?.name ?? getText(event.content);
    return `${event.author}: ${what}`;
  });
}

describe('Runner.run with an in-memory session store', () => {
  it('stores and yields the same events through the synchronous path as through a subclass', async () => {
    class Counting extends InMemorySessionService {
      appends = 0;
      gets = 0;
      override async appendEvent(request: AppendEventRequest): Promise<Event> {
        this.appends++;
        return super.appendEvent(request);
      }
      override async getSession(request: GetSessionRequest): Promise<Session | undefined> {
        this.gets++;
        return super.getSession(request);
      }
    }
    const plain = new InMemorySessionService();
    const counting = new Counting();
    for (const service of [plain, counting]) {
      await service.createSession({ appName: APP, userId: USER, sessionId: SESSION });
    }
    const fromPlain = await turn(weatherRunner(plain), 'Weather in Paris?');
    const fromCounting = await turn(weatherRunner(counting), 'Weather in Paris?');

    // The overriding subclass is called for every read and write of the run.
    expect(counting.appends).toBe(4);
    expect(counting.gets).toBe(1);
    // The same events but for their random ids (event ids, the call's `adk-` id).
    const shape = (events: Event[]) =>
      events.map((event) => {
        const part = event.content?.parts[0];
        return [
          event.author,
          event.content?.role,
          part?.functionCall?.args,
          part?.functionResponse?.response,
          getText(event.content),
        ];
      });
    expect(shape(fromPlain)).toEqual(shape(fromCounting));
    expect(await stored(plain)).toEqual(await stored(counting));
    expect(await stored(plain)).toEqual([
      'user: Weather in Paris?',
      'weather: get_weather',
      'weather: get_weather',
      'weather: Clear in Paris.',
    ]);
  });

  it('calls appendEvent and getSession spied on an instance', async () => {
    const service = new InMemorySessionService();
    await service.createSession({ appName: APP, userId: USER, sessionId: SESSION });
    const appendSpy = vi.spyOn(service, 'appendEvent');
    const getSpy = vi.spyOn(service, 'getSession');
    const events = await turn(weatherRunner(service), 'Weather in Paris?');
    expect(appendSpy).toHaveBeenCalledTimes(4);
    expect(getSpy).toHaveBeenCalledTimes(1);
    // What the caller saw after the user message is what was appended, in order.
    const appended = appendSpy.mock.calls.map(([request]) => request.event.id);
    expect(appended.slice(1)).toEqual(events.map((event) => event.id));
  });

  it('gives the turn back when releasing the session lock fails, and throws that error', async () => {
    let releases = 0;
    const lock: SessionLock = {
      acquire: async () => async () => {
        releases++;
        if (releases === 1) throw new TypeError('release lost');
      },
    };
    const service = new InMemorySessionService();
    await service.createSession({ appName: APP, userId: USER, sessionId: SESSION });
    const runner = weatherRunner(service, lock);
    await expect(turn(runner, 'first')).rejects.toThrow('release lost');
    // The next run on the session is not left waiting for a turn that was never given back.
    const second = await turn(runner, 'second');
    expect(getText(second[second.length - 1]?.content)).toBe('Clear in Paris.');
    expect(releases).toBe(2);
  });
});
