import { randomUUID } from 'node:crypto';

import {
  FunctionTool,
  getText,
  InMemorySessionService,
  LlmAgent,
  type LlmRequest,
} from '@adk/core';
import { FakeModel, type FakeStep } from '@adk/core/testing';
import { z } from 'zod';

import {
  createA2aServer,
  listenA2a,
  Role,
  type A2aServerOptions,
  type Message,
  type RunningA2aServer,
} from '../src';

/** The text of the latest user message of a model request. */
export function lastUserText(request: LlmRequest): string {
  const users = request.contents.filter(
    (content) => content.role === 'user' && getText(content) !== '',
  );
  return getText(users.at(-1));
}

/** Number of user text messages the model sees: grows with the session's history. */
export function userTurns(request: LlmRequest): number {
  return request.contents.filter(
    (content) =>
      content.role === 'user' &&
      content.parts.some(
        (part) => part.text !== undefined && !part.text.startsWith('For context:'),
      ),
  ).length;
}

/**
 * A gate a test opens by hand: `wait` resolves once `open` is called or its signal aborts;
 * `entered` settles when someone waits, `aborted` when a waiter's signal aborts.
 */
export function gate(): {
  open: () => void;
  wait: (signal: AbortSignal) => Promise<void>;
  entered: Promise<void>;
  aborted: Promise<void>;
} {
  let open!: () => void;
  let enter!: () => void;
  let abort!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const entered = new Promise<void>((resolve) => (enter = resolve));
  const aborted = new Promise<void>((resolve) => (abort = resolve));
  return {
    open,
    entered,
    aborted,
    wait: (signal) =>
      new Promise<void>((resolve) => {
        enter();
        void opened.then(resolve);
        signal.addEventListener(
          'abort',
          () => {
            abort();
            resolve();
          },
          { once: true },
        );
      }),
  };
}

/**
 * The remote side of the tests: an `echo` agent whose fake model answers
 * `echo #<turn>: <text>` (turn = user messages in its history), calls `slow` when asked to
 * ("slow"), asks for approval through the long-running `ask_approval` tool ("approve"), calls
 * `pay`, which requires a human confirmation ("pay"), and answers with an error response when
 * asked to ("fail").
 */
export function echoAgent(slowGate = gate()) {
  const model = new FakeModel({
    responses: (request): FakeStep => {
      const last = request.contents.at(-1);
      const response = last?.parts.find((part) => part.functionResponse)?.functionResponse;
      if (response?.name === 'ask_approval')
        return `approval: ${JSON.stringify(response.response)}`;
      if (response?.name === 'slow') return 'slow done';
      if (response?.name === 'pay') return `paid: ${JSON.stringify(response.response)}`;
      const text = lastUserText(request);
      if (text === 'fail')
        return { errorCode: 'SAFETY', errorMessage: 'blocked by the fake model' };
      if (text === 'slow') return { functionCalls: [{ id: 'slow-1', name: 'slow', args: {} }] };
      if (text === 'pay')
        return { functionCalls: [{ id: 'pay-1', name: 'pay', args: { amount: 5 } }] };
      if (text === 'approve') {
        return {
          functionCalls: [{ id: 'approval-1', name: 'ask_approval', args: { amount: 42 } }],
        };
      }
      return `echo #${userTurns(request)}: ${text}`;
    },
  });
  const slow = new FunctionTool({
    name: 'slow',
    description: 'Takes a while.',
    parameters: z.object({}),
    execute: async (_args, context) => {
      await slowGate.wait(context.signal);
      return { done: true };
    },
  });
  const askApproval = new FunctionTool({
    name: 'ask_approval',
    description: 'Asks a human to approve an amount.',
    parameters: z.object({ amount: z.number() }),
    isLongRunning: true,
    // Returns nothing: the call stays pending and the run ends waiting for its response.
    execute: () => undefined,
  });
  const pay = new FunctionTool({
    name: 'pay',
    description: 'Pays an amount, once a human confirms.',
    parameters: z.object({ amount: z.number() }),
    requireConfirmation: true,
    execute: ({ amount }) => ({ paid: amount }),
  });
  const agent = new LlmAgent({
    name: 'echo',
    description: 'Echoes what it is told.',
    model,
    tools: [slow, askApproval, pay],
  });
  return { agent, model, slowGate };
}

/** Start an A2A server on 127.0.0.1 (a free port) for the echo agent. */
export async function startEchoServer(
  options: Partial<A2aServerOptions> = {},
): Promise<
  RunningA2aServer & ReturnType<typeof echoAgent> & { sessionService: InMemorySessionService }
> {
  const echo = echoAgent();
  const sessionService = new InMemorySessionService({ packIdleSessionsAfterMs: false });
  const app = createA2aServer({ agent: echo.agent, sessionService, ...options });
  const server = await listenA2a(app, { port: 0 });
  return { ...server, ...echo, sessionService };
}

/** A user text message (A2A 1.0). */
export function userMessage(text: string, extra: Partial<Message> = {}): Message {
  return {
    messageId: randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [
      { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
    ...extra,
  };
}

/** The text of a message's or artifact's parts. */
export function partsText(
  parts: readonly { content?: { $case: string; value?: unknown } | undefined }[] = [],
): string {
  return parts
    .map((part) => (part.content?.$case === 'text' ? String(part.content.value) : ''))
    .join('');
}

/** POST one JSON-RPC body to `url` and return the HTTP response. */
export function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
