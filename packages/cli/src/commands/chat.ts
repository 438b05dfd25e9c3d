import { createInterface } from 'node:readline';

import { getFunctionCalls, getFunctionResponses, Runner } from '@adk/core';
import type { Content, Event, Part } from '@adk/core';

import { dirname } from 'node:path';

import { loadAgentModule, appNameOf } from '../load-agents';
import { defaultArtifactsDir, openArtifactStore, openMemoryStore } from '../services';
import { openSessionStore } from '../session-store';
import { Spinner, type Output } from '../spinner';

/** Options of {@link chat}. */
export interface ChatOptions {
  /** The agent file (`rootAgent` or default export). */
  agentFile: string;
  /** Session store URI (default in memory). */
  sessionServiceUri?: string;
  /**
   * Artifact store: `memory://`, `file://<dir>`, `sqlite:<file>` or `postgres://...`. Default:
   * files next to the sessions (see `defaultArtifactsDir`).
   */
  artifactServiceUri?: string;
  /** Memory store: `memory://` (default), `sqlite:<file>` or `postgres://...`. */
  memoryServiceUri?: string;
  userId?: string;
  /** Continue this session (created when missing). */
  sessionId?: string;
  input?: NodeJS.ReadableStream;
  output?: Output;
}

const dim = (text: string, tty: boolean) => (tty ? `\x1b[2m${text}\x1b[22m` : text);
const short = (value: unknown) => {
  const text = JSON.stringify(value ?? {});
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

/**
 * Chat with an agent in the terminal: each line is a message, replies stream as they are
 * generated, tool calls and transfers are shown, approvals are asked for. Ends on `exit` or EOF.
 */
export async function chat(options: ChatOptions): Promise<void> {
  const out = options.output ?? process.stdout;
  const tty = Boolean(out.isTTY);
  const { agent, app } = await loadAgentModule(options.agentFile);
  const store = await openSessionStore(options.sessionServiceUri);
  const artifacts = await openArtifactStore(
    options.artifactServiceUri,
    defaultArtifactsDir(options.sessionServiceUri, dirname(options.agentFile)),
  ).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const memory = await openMemoryStore(options.memoryServiceUri).catch(async (error: unknown) => {
    await artifacts.close();
    await store.close();
    throw error;
  });
  const appName = appNameOf(options.agentFile);
  const userId = options.userId ?? 'user';
  const services = {
    sessionService: store.service,
    artifactService: artifacts.service,
    memoryService: memory.service,
    autoCreateSession: true,
  };
  // An exported `App` brings its plugins; sessions stay under the file's name either way.
  const runner = app
    ? new Runner({ app, appName, ...services })
    : new Runner({ appName, agent, ...services });
  const sessionId =
    options.sessionId ?? (await store.service.createSession({ appName, userId })).id;
  const spinner = new Spinner(out);
  const rl = createInterface({ input: options.input ?? process.stdin, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  const ask = async (prompt: string) => {
    out.write(prompt);
    const next = await lines.next();
    return next.done ? undefined : next.value;
  };

  out.write(
    `Chatting with ${agent.name} (session ${sessionId}, sessions ${store.description}). Type "exit" to quit.\n`,
  );
  try {
    let message: Content | undefined;
    for (;;) {
      if (!message) {
        const line = await ask('you > ');
        if (line === undefined || ['exit', 'quit'].includes(line.trim())) break;
        if (!line.trim()) continue;
        message = { role: 'user', parts: [{ text: line }] };
      }
      const confirmations = await turn(runner, { userId, sessionId, message }, out, tty, spinner);
      message = undefined;
      const answers: Part[] = [];
      for (const request of confirmations) {
        const answer = await ask(`Approve ${request.label}? [y/N] `);
        const confirmed = /^y(es)?$/i.test(answer?.trim() ?? '');
        answers.push({
          functionResponse: {
            id: request.id,
            name: 'adk_request_confirmation',
            response: { confirmed },
          },
        });
      }
      if (answers.length > 0) message = { role: 'user', parts: answers };
    }
  } finally {
    spinner.stop();
    rl.close();
    await runner.close();
    await memory.close();
    await artifacts.close();
    await store.close();
  }
}

interface PendingConfirmation {
  id: string;
  label: string;
}

/**
 * Run one turn and print it. Ctrl+C during the turn stops it (the session keeps what was stored);
 * Ctrl+C while waiting for input quits as usual.
 */
async function turn(
  runner: Runner,
  request: { userId: string; sessionId: string; message: Content },
  out: Output,
  tty: boolean,
  spinner: Spinner,
): Promise<PendingConfirmation[]> {
  const pending: PendingConfirmation[] = [];
  let streamingAuthor: string | undefined;
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  spinner.start('thinking');
  try {
    for await (const event of runner.run({
      userId: request.userId,
      sessionId: request.sessionId,
      newMessage: request.message,
      runConfig: { streamingMode: 'sse' },
      signal: controller.signal,
    })) {
      if (event.author === 'user') continue;
      spinner.stop();
      streamingAuthor = print(event, streamingAuthor, out, tty, pending);
      if (!event.partial) spinner.start('thinking');
    }
  } catch (error) {
    spinner.stop();
    if (!controller.signal.aborted) out.write(`\nerror: ${(error as Error).message}\n`);
  } finally {
    process.removeListener('SIGINT', stop);
    spinner.stop();
  }
  if (streamingAuthor) out.write('\n');
  if (controller.signal.aborted) out.write('(stopped)\n');
  return pending;
}

/** Print one event; returns the author whose text is being streamed, if any. */
function print(
  event: Event,
  streaming: string | undefined,
  out: Output,
  tty: boolean,
  pending: PendingConfirmation[],
): string | undefined {
  const text = (event.content?.parts ?? [])
    .filter((part) => part.text && !part.thought)
    .map((part) => part.text)
    .join('');
  if (event.partial) {
    if (!text) return streaming;
    if (streaming !== event.author) out.write(`${streaming ? '\n' : ''}${event.author} > `);
    out.write(text);
    return event.author;
  }
  if (text) {
    if (streaming === event.author) out.write('\n');
    else out.write(`${streaming ? '\n' : ''}${event.author} > ${text}\n`);
  } else if (streaming) out.write('\n');
  for (const call of getFunctionCalls(event.content)) {
    if (call.name === 'adk_request_confirmation') {
      const original = (call.args?.originalFunctionCall ?? {}) as { name?: string; args?: unknown };
      pending.push({
        id: call.id ?? '',
        label: `${original.name ?? 'tool'}(${short(original.args)})`,
      });
    } else if (call.name !== 'transfer_to_agent') {
      out.write(dim(`  → ${call.name}(${short(call.args)})\n`, tty));
    }
  }
  for (const response of getFunctionResponses(event.content)) {
    if (response.name !== 'transfer_to_agent')
      out.write(dim(`  ← ${response.name}: ${short(response.response)}\n`, tty));
  }
  if (event.actions.transferToAgent)
    out.write(dim(`  ⇢ transferred to ${event.actions.transferToAgent}\n`, tty));
  if (event.errorMessage) out.write(`error: ${event.errorMessage}\n`);
  return undefined;
}
