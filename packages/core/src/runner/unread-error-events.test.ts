import { inspect } from 'node:util';

import { afterEach, describe, expect, it } from 'vitest';

import { LlmAgent } from '../agents';
import { getText, userContent } from '../content';
import type { Event } from '../events';
import { FakeModel } from '../testing';
import { Runner } from './runner';
import { reportUnreadErrorEvents, UNREAD_ERROR_EVENT_WARNING } from './unread-error-events';

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
process.on('warning', onWarning);
afterEach(() => {
  warnings.length = 0;
});

/** A runner whose model fails: the agent's turn ends with an error event. */
function failingRunner(): Runner {
  const model = new FakeModel({ responses: [new Error('No API key for gemini')] });
  const agent = new LlmAgent({ name: 'weather', model });
  return new Runner({ appName: 'demo', agent, autoCreateSession: true });
}

/** Runs one turn, handing each event to `look`, and waits for warnings to be delivered. */
async function runTurn(look: (event: Event) => void): Promise<Error[]> {
  const runner = failingRunner();
  for await (const event of runner.run({
    userId: 'u',
    sessionId: 's',
    newMessage: userContent('Weather in Paris?'),
  })) {
    look(event);
  }
  reportUnreadErrorEvents();
  await new Promise((resolve) => setImmediate(resolve));
  return warnings.filter(
    (warning) => (warning as { code?: string }).code === UNREAD_ERROR_EVENT_WARNING,
  );
}

describe('error events nobody read', () => {
  it('a loop that prints only text gets a process warning naming the error', async () => {
    const printed: string[] = [];
    const found = await runTurn((event) => printed.push(getText(event.content)));
    expect(found).toHaveLength(1);
    expect(found[0]!.name).toBe('AdkWarning');
    expect(found[0]!.message).toContain('app "demo"');
    expect(found[0]!.message).toContain('No API key for gemini');
    expect(found[0]!.message).toContain('event.errorCode');
  });

  it('a loop that checks errorCode gets no warning', async () => {
    const codes: (string | undefined)[] = [];
    expect(await runTurn((event) => codes.push(event.errorCode))).toEqual([]);
    expect(codes.some((code) => code !== undefined)).toBe(true);
  });

  it('serialising, copying or logging the event counts as reading it, and shows plain data', async () => {
    expect(await runTurn((event) => JSON.stringify(event))).toEqual([]);
    expect(await runTurn((event) => structuredClone(event))).toEqual([]);
    expect(await runTurn((event) => ({ ...event }))).toEqual([]);
    let shown = '';
    expect(
      await runTurn((event) => {
        if (event.errorCode !== undefined) return;
        shown += inspect(event);
      }),
    ).toEqual([]);
    const logged: string[] = [];
    await runTurn((event) => logged.push(inspect(event)));
    const errorLine = logged.find((text) => text.includes('errorCode'));
    expect(errorLine).toContain("errorMessage: 'No API key for gemini'");
    expect(errorLine).not.toContain('[Getter');
    expect(shown).not.toContain('[Getter');
  });

  it('an event collected during the run and checked after it counts as read', async () => {
    const events: Event[] = [];
    const runner = failingRunner();
    for await (const event of runner.run({
      userId: 'u',
      sessionId: 's3',
      newMessage: userContent('hi'),
    })) {
      events.push(event);
    }
    expect(events.at(-1)?.errorCode).toBe('MODEL_ERROR');
    reportUnreadErrorEvents();
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);
  });

  it('the stored event is the plain one', async () => {
    const runner = failingRunner();
    for await (const event of runner.run({
      userId: 'u',
      sessionId: 's2',
      newMessage: userContent('hi'),
    })) {
      void event.errorCode;
    }
    const session = await runner.sessionService.getSession({
      appName: 'demo',
      userId: 'u',
      sessionId: 's2',
    });
    const stored = session?.events.find((event) => event.errorCode !== undefined);
    expect(Object.getOwnPropertyDescriptor(stored, 'errorCode')?.get).toBeUndefined();
  });
});
