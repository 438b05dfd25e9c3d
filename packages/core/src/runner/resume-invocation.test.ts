import { describe, expect, it } from 'vitest';

import { LlmAgent } from '../agents/llm-agent';
import { getFunctionResponses, getText, userContent } from '../content';
import { InvocationNotFoundError } from '../errors/invocation-not-found-error';
import type { Event } from '../events';
import type { LlmRequest } from '../models';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { FakeModel } from '../testing/fake-model';
import { FunctionTool } from '../tools/function-tool';
import { readInvocationProgress } from './invocation-progress';
import { Runner } from './runner';

const USER = 'u1';
const SESSION = 's1';
const INVOCATION = 'job-42';

async function drain(events: AsyncIterable<Event>): Promise<Event[]> {
  const all: Event[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** The responses the model was last given, by tool name. */
function lastResponses(request: LlmRequest): Record<string, unknown> {
  const responses = getFunctionResponses(request.contents.at(-1));
  return Object.fromEntries(responses.map((response) => [response.name, response.response]));
}

/**
 * An agent that calls `lookup` (answered at once), then `charge` (which hangs until the run is
 * aborted: the process "dies" mid-call), then answers with what `charge` returned.
 */
function harness(options: { chargeIdempotent: boolean }) {
  const ran = { lookup: 0, charge: 0 };
  let chargeStarted!: () => void;
  const started = new Promise<void>((resolve) => (chargeStarted = resolve));
  let hang = true;
  const lookup = new FunctionTool({
    name: 'lookup',
    description: 'Look up the order.',
    execute: async () => {
      ran.lookup++;
      return { order: 'A-1', amount: 12 };
    },
  });
  const charge = new FunctionTool({
    name: 'charge',
    description: 'Charge the card.',
    isIdempotent: options.chargeIdempotent,
    execute: async (_args, context) => {
      ran.charge++;
      chargeStarted();
      if (hang)
        await new Promise((resolve) =>
          context.signal.addEventListener('abort', resolve, { once: true }),
        );
      return { charged: true };
    },
  });
  const seen: LlmRequest[] = [];
  const model = new FakeModel({
    responses: (request) => {
      seen.push(request);
      const last = lastResponses(request);
      if ('charge' in last) return `charge answered: ${JSON.stringify(last.charge)}`;
      if ('lookup' in last) return { functionCalls: [{ name: 'charge', args: { amount: 12 } }] };
      return { functionCalls: [{ name: 'lookup', args: {} }] };
    },
  });
  const agent = new LlmAgent({ name: 'cashier', model, tools: [lookup, charge] });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'shop', agent, sessionService, autoCreateSession: true });
  const crash = async () => {
    const controller = new AbortController();
    const run = drain(
      runner.run({
        userId: USER,
        sessionId: SESSION,
        invocationId: INVOCATION,
        newMessage: userContent('Charge order A-1'),
        signal: controller.signal,
      }),
    );
    await started;
    controller.abort(); // the process dies while `charge` runs
    await run;
    hang = false;
  };
  const session = async () =>
    (await sessionService.getSession({ appName: 'shop', userId: USER, sessionId: SESSION }))!;
  return { runner, ran, seen, crash, session };
}

describe('Runner.resume', () => {
  it('reads an interrupted invocation: answered and interrupted calls, last event', async () => {
    const { crash, session } = harness({ chargeIdempotent: false });
    await crash();
    const progress = readInvocationProgress((await session()).events, INVOCATION);
    expect(progress.userEvent?.content?.parts[0]?.text).toBe('Charge order A-1');
    expect(progress.answered.map(({ call }) => call.name)).toEqual(['lookup']);
    expect(progress.interrupted.map(({ call }) => call.name)).toEqual(['charge']);
    expect(progress.lastEvent?.content?.parts[0]?.functionCall?.name).toBe('charge');
    expect(progress.finished).toBe(false);
  });

  it('answers an interrupted non-idempotent call with TOOL_INTERRUPTED, never running it again', async () => {
    const { runner, ran, seen, crash, session } = harness({ chargeIdempotent: false });
    await crash();
    expect(ran).toEqual({ lookup: 1, charge: 1 });
    const events = await drain(
      runner.resume({ userId: USER, sessionId: SESSION, invocationId: INVOCATION }),
    );
    expect(ran).toEqual({ lookup: 1, charge: 1 });
    const interrupted = getFunctionResponses(events[0]?.content)[0];
    expect(interrupted).toMatchObject({
      name: 'charge',
      response: { error: { code: 'TOOL_INTERRUPTED' } },
    });
    expect(getText(events.at(-1)?.content)).toContain('TOOL_INTERRUPTED');
    const stored = (await session()).events;
    expect(stored.filter((event) => event.author === 'user')).toHaveLength(1);
    expect(stored.every((event) => event.invocationId === INVOCATION)).toBe(true);
    // The model was given the whole invocation, once: the user's message is not sent again.
    const lastRequest = seen.at(-1)!;
    const userTexts = lastRequest.contents.flatMap((content) =>
      content.parts.filter((part) => part.text === 'Charge order A-1'),
    );
    expect(userTexts).toHaveLength(1);
    expect(readInvocationProgress(stored, INVOCATION).finished).toBe(true);
    // A finished invocation has nothing left to do.
    expect(
      await drain(runner.resume({ userId: USER, sessionId: SESSION, invocationId: INVOCATION })),
    ).toEqual([]);
  });

  it('runs an interrupted call of an idempotent tool again; stored responses are reused', async () => {
    const { runner, ran, crash } = harness({ chargeIdempotent: true });
    await crash();
    const events = await drain(
      runner.resume({ userId: USER, sessionId: SESSION, invocationId: INVOCATION }),
    );
    expect(ran).toEqual({ lookup: 1, charge: 2 });
    expect(getFunctionResponses(events[0]?.content)[0]).toMatchObject({
      name: 'charge',
      response: { charged: true },
    });
    expect(getText(events.at(-1)?.content)).toBe('charge answered: {"charged":true}');
  });

  it('refuses an invocation the session does not hold', async () => {
    const { runner, crash } = harness({ chargeIdempotent: false });
    await crash();
    await expect(
      drain(runner.resume({ userId: USER, sessionId: SESSION, invocationId: 'nope' })),
    ).rejects.toSatisfy(InvocationNotFoundError.isInstance);
  });
});
