import {
  InMemorySessionService,
  Runner,
  userContent,
  type BaseAgent,
  type Content,
  type Event,
  type SessionService,
} from '@adk/core';

import { workflowRecordOf, type NodeOutputRecord } from '../src';

/** A runner over `agent` with an in-memory (or the given) session store. */
export function runnerFor(
  agent: BaseAgent,
  sessionService: SessionService = new InMemorySessionService(),
) {
  return new Runner({ appName: 'app', agent, sessionService, autoCreateSession: true });
}

/** Run one turn and collect its events. */
export async function turn(
  runner: Runner,
  message: string | Content,
  sessionId = 's',
): Promise<Event[]> {
  const events: Event[] = [];
  const newMessage = typeof message === 'string' ? userContent(message) : message;
  for await (const event of runner.run({ userId: 'u', sessionId, newMessage })) events.push(event);
  return events;
}

/** The node output records among `events`, in order. */
export function outputs(events: readonly Event[]): NodeOutputRecord[] {
  return events.flatMap((event) => {
    const record = workflowRecordOf(event);
    return record?.kind === 'output' ? [record] : [];
  });
}

/** The final output of the workflow run among `events` (its end record). */
export function workflowOutput(events: readonly Event[]): unknown {
  for (const event of events) {
    const record = workflowRecordOf(event);
    if (record?.kind === 'end') return record.output;
  }
  return undefined;
}

/** A promise resolved after `ms`. */
export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** An answer to the function call `id` from the user. */
export function answer(id: string, name: string, response: Record<string, unknown>): Content {
  return { role: 'user', parts: [{ functionResponse: { id, name, response } }] };
}
