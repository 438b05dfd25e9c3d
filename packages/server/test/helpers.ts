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

/** One SSE frame: its `id:` (when it has one) and the text of its `data:` lines. */
export function frameParts(frame: string): { id: string | undefined; data: string } {
  let id: string | undefined;
  const data: string[] = [];
  for (const line of frame.split('\n')) {
    if (line.startsWith('id:')) id = line.slice(3).trimStart();
    else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
  }
  return { id, data: data.join('\n') };
}

/** Parse a `text/event-stream` body into the JSON of each `data:` frame. */
export function parseSse(text: string): unknown[] {
  return text
    .split('\n\n')
    .map(frameParts)
    .filter((frame) => frame.data !== '')
    .map((frame) => JSON.parse(frame.data) as unknown);
}

/** Read an SSE response frame by frame, with each frame's `id:` when it has one. */
export async function* sseFramesWithIds(
  response: Response,
): AsyncGenerator<{ id: string | undefined; value: Record<string, unknown> }> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = frameParts(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (frame.data !== '') {
        yield { id: frame.id, value: JSON.parse(frame.data) as Record<string, unknown> };
      }
    }
  }
}

/** Read an SSE response frame by frame. */
export async function* sseFrames(response: Response): AsyncGenerator<Record<string, unknown>> {
  for await (const frame of sseFramesWithIds(response)) yield frame.value;
}

/** A promise with its resolver exposed. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
