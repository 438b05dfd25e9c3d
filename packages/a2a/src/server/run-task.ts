import { randomUUID } from 'node:crypto';

import { AdkError, type Content, type Event, type RunConfig, type Runner } from '@adk/core';

import { eventToA2aMessage } from '../convert/messages';
import { AdkDataPartType, AdkMetadataKey } from '../convert/metadata-keys';
import type { A2aMessage } from '../protocol/types';
import type { TaskRecord, TaskStore } from './task-store';

/** What one run of a task needs. */
export interface RunTaskInput {
  runner: Runner;
  store: TaskStore;
  record: TaskRecord;
  userId: string;
  /** The user's message as ADK content. */
  newMessage: Content;
  runConfig?: Partial<RunConfig>;
}

/**
 * Start one ADK run for a task and publish its progress as A2A events; returns once the run has
 * started (`record.done` settles when the final event is out).
 *
 * Mapping: `working` (start) → one `working` status update per stored event with content (the
 * event as an agent message) → at the end, `failed` when an event carried an error or the run
 * threw, `input-required` when the agent paused on a long-running function call (a tool that
 * waits, a confirmation request), else the last agent message as an artifact and `completed`.
 * `tasks/cancel` aborts the run; the task then ends `canceled`.
 */
export function runTask(input: RunTaskInput): void {
  const { record, store } = input;
  const controller = new AbortController();
  store.begin(record, controller);
  record.done = execute(input, controller.signal).finally(() => store.end(record));
}

async function execute(input: RunTaskInput, signal: AbortSignal): Promise<void> {
  const { runner, record, userId } = input;
  const { id: taskId, contextId } = record.task;
  const metadata = {
    [AdkMetadataKey.appName]: runner.appName,
    [AdkMetadataKey.userId]: userId,
    [AdkMetadataKey.sessionId]: contextId,
  };
  record.setStatus({ state: 'working' }, false, metadata);
  let failure: A2aMessage | undefined;
  let pause: A2aMessage | undefined;
  let answer: A2aMessage | undefined;
  try {
    await ensureSession(runner, userId, contextId);
    for await (const event of runner.run({
      userId,
      sessionId: contextId,
      newMessage: input.newMessage,
      runConfig: input.runConfig,
      signal,
    })) {
      if (event.partial) continue;
      if (event.errorCode !== undefined) failure ??= errorMessage(event, taskId, contextId);
      const message = eventToA2aMessage(event, { taskId, contextId });
      if (!message) continue;
      record.setStatus({ state: 'working', message }, false, eventMetadata(metadata, event));
      if (isPause(message)) pause = message;
      else if (event.author !== 'user') answer = message;
    }
  } catch (error) {
    if (!signal.aborted) failure ??= thrownMessage(error, taskId, contextId);
  }
  if (signal.aborted || record.state === 'canceled') return;
  if (failure) {
    record.setStatus({ state: 'failed', message: failure }, true, metadata);
  } else if (pause) {
    record.setStatus({ state: 'input-required', message: pause }, true, metadata);
  } else {
    if (answer) {
      const artifact = { artifactId: randomUUID(), name: 'response', parts: answer.parts };
      (record.task.artifacts ??= []).push(artifact);
      record.publish({
        kind: 'artifact-update',
        taskId,
        contextId,
        artifact,
        lastChunk: true,
        metadata,
      });
    }
    record.setStatus({ state: 'completed' }, true, metadata);
  }
}

async function ensureSession(runner: Runner, userId: string, sessionId: string): Promise<void> {
  const request = { appName: runner.appName, userId, sessionId };
  const session = await runner.sessionService.getSession(request);
  if (!session) await runner.sessionService.createSession(request);
}

/** True when the message holds a long-running function call: the task waits for input. */
function isPause(message: A2aMessage): boolean {
  return message.parts.some(
    (part) =>
      part.kind === 'data' &&
      part.metadata?.[AdkMetadataKey.type] === AdkDataPartType.functionCall &&
      part.metadata[AdkMetadataKey.isLongRunning] === true,
  );
}

function eventMetadata(base: Record<string, unknown>, event: Event): Record<string, unknown> {
  return {
    ...base,
    [AdkMetadataKey.invocationId]: event.invocationId,
    [AdkMetadataKey.author]: event.author,
    [AdkMetadataKey.eventId]: event.id,
  };
}

function errorMessage(event: Event, taskId: string, contextId: string): A2aMessage {
  return agentText(
    event.errorMessage ?? `The agent failed (${event.errorCode ?? 'error'}).`,
    event.errorCode,
    taskId,
    contextId,
  );
}

function thrownMessage(error: unknown, taskId: string, contextId: string): A2aMessage {
  const text = error instanceof Error ? error.message : String(error);
  return agentText(text, AdkError.isInstance(error) ? error.code : 'INTERNAL', taskId, contextId);
}

function agentText(
  text: string,
  errorCode: string | undefined,
  taskId: string,
  contextId: string,
): A2aMessage {
  const message: A2aMessage = {
    kind: 'message',
    messageId: randomUUID(),
    role: 'agent',
    parts: [{ kind: 'text', text }],
    taskId,
    contextId,
  };
  if (errorCode !== undefined) message.metadata = { [AdkMetadataKey.errorCode]: errorCode };
  return message;
}
