import { createEvent, InMemorySessionService } from '@adk/core';
import type { Event, EventInit, SessionService } from '@adk/core';
import type { AgentNode, AppRunner, AppRunRequest } from '../src';

/** Emit events from a test script; non-partial ones are stored before they are yielded. */
export type Script = (
  request: AppRunRequest,
  emit: (init: Partial<EventInit>) => Event,
) => AsyncGenerator<Event, void>;

/**
 * A runner that follows the `Runner` contract of `@adk/core` (store the user message without
 * yielding it, store every non-partial event before yielding it, stop when the signal aborts) and
 * whose agent turns are scripted by the test.
 */
export function scriptedRunner(
  sessionService: SessionService,
  appName: string,
  agentName: string,
  script: Script,
): AppRunner & { calls: AppRunRequest[] } {
  const calls: AppRunRequest[] = [];
  return {
    calls,
    async *run(request) {
      calls.push(request);
      const session = await sessionService.getSession({
        appName,
        userId: request.userId,
        sessionId: request.sessionId,
      });
      if (!session) throw new Error(`no session ${request.sessionId}`);
      const invocationId = `inv-${calls.length}`;
      const user = createEvent({
        invocationId,
        author: 'user',
        content: request.newMessage,
        actions: { stateDelta: request.stateDelta ?? {} },
      });
      await sessionService.appendEvent({ session, event: user });
      const emit = (init: Partial<EventInit>) =>
        createEvent({ invocationId, author: agentName, ...init });
      for await (const event of script(request, emit)) {
        request.signal?.throwIfAborted();
        if (!event.partial) await sessionService.appendEvent({ session, event });
        yield event;
      }
    },
  };
}

export const weatherTree: AgentNode = {
  name: 'router',
  description: 'Routes questions',
  subAgents: [
    {
      name: 'weather',
      description: 'Weather questions',
      subAgents: [],
      tools: [{ name: 'get_weather' }],
    },
    { name: 'news', description: 'News questions', subAgents: [], tools: [{ name: 'get_news' }] },
  ],
};

export function memoryServices() {
  return { sessionService: new InMemorySessionService() };
}

/** Parse a `text/event-stream` body into the JSON of each `data:` frame. */
export function parseSse(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as unknown);
}

/** Read an SSE response frame by frame. */
export async function* sseFrames(response: Response): AsyncGenerator<Record<string, unknown>> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (frame.startsWith('data: ')) yield JSON.parse(frame.slice(6)) as Record<string, unknown>;
    }
  }
}

/** A promise with its resolver exposed. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
