import { randomUUID } from 'node:crypto';

import { AdkError, type Event, type RunConfig, type Runner } from '@adk/core';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import {
  AgentEvent,
  STATE_HEADERS_KEY,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
  type RequestHeaders,
} from '@a2a-js/sdk/server';

import { a2aMessageToContent, eventToA2aMessage } from '../convert/messages';
import { AdkDataPartType, AdkMetadataKey } from '../convert/metadata-keys';

/** What the server knows about the caller of one request. */
export interface A2aRequestContext {
  /** The conversation (the ADK session id). */
  contextId: string;
  /** The request's HTTP headers (lower-case names). */
  headers: RequestHeaders;
  /** The authenticated user's name, when the server requires authentication. */
  userName: string | undefined;
}

/** Decides the ADK user id a request runs as. */
export type A2aUserIdResolver = (context: A2aRequestContext) => string | Promise<string>;

/**
 * The A2A user id of the Python ADK, one user per conversation (`A2A_USER_<contextId>`), or the
 * authenticated user when the server requires authentication.
 */
export const defaultA2aUserId: A2aUserIdResolver = ({ contextId, userName }) =>
  userName ?? `A2A_USER_${contextId}`;

/** Options of {@link AdkAgentExecutor}. */
export interface AdkAgentExecutorOptions {
  runner: Runner;
  userId?: A2aUserIdResolver;
  runConfig?: Partial<RunConfig>;
}

/**
 * Runs an ADK agent for the A2A SDK's request handler: each message is one `Runner.run` turn on
 * the session whose id is the A2A `contextId` (created on first use).
 *
 * Mapping: the task (or the continued task) → `working` → one `working` status update per stored
 * event with content (the event as an agent message with `adk_` metadata) → at the end `failed`
 * when an event carried an error or the run threw, `input-required` when the agent paused on a
 * long-running function call (a tool that waits, a confirmation request), else the last agent
 * message as the `response` artifact and `completed`. `cancelTask` aborts the run; the task ends
 * `canceled`.
 */
export class AdkAgentExecutor implements AgentExecutor {
  readonly #options: AdkAgentExecutorOptions;
  readonly #running = new Map<string, { controller: AbortController; contextId: string }>();

  constructor(options: AdkAgentExecutorOptions) {
    this.#options = options;
  }

  /** Abort every running task (the server is closing). */
  abortAll(): void {
    for (const { controller } of this.#running.values()) controller.abort();
  }

  execute = async (request: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { runner } = this.#options;
    const { taskId, contextId } = request;
    const userMessage = request.userMessage;
    const headers = (request.context.state.get(STATE_HEADERS_KEY) ?? {}) as RequestHeaders;
    const user = request.context.user;
    const userId = await (this.#options.userId ?? defaultA2aUserId)({
      contextId,
      headers,
      userName: user?.isAuthenticated ? user.userName : undefined,
    });
    const metadata: Record<string, unknown> = {
      [AdkMetadataKey.appName]: runner.appName,
      [AdkMetadataKey.userId]: userId,
      [AdkMetadataKey.sessionId]: contextId,
    };
    // A continued task (an answer to input-required) starts working again.
    const task: Task = request.task
      ? {
          ...request.task,
          status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: now() },
        }
      : {
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
          artifacts: [],
          history: [userMessage],
          metadata,
        };
    bus.publish(AgentEvent.task(task));
    const status = (state: TaskState, message?: Message, extra = metadata) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: { state, message, timestamp: now() },
          metadata: extra,
        }),
      );
    status(TaskState.TASK_STATE_WORKING);

    const controller = new AbortController();
    this.#running.set(taskId, { controller, contextId });
    let failure: Message | undefined;
    let pause: Message | undefined;
    let answer: Message | undefined;
    try {
      await ensureSession(runner, userId, contextId);
      for await (const event of runner.run({
        userId,
        sessionId: contextId,
        newMessage: a2aMessageToContent(userMessage).content,
        runConfig: this.#options.runConfig,
        signal: controller.signal,
      })) {
        if (event.partial) continue;
        if (event.errorCode !== undefined) failure ??= errorMessage(event, taskId, contextId);
        const message = eventToA2aMessage(event, { taskId, contextId });
        if (!message) continue;
        status(TaskState.TASK_STATE_WORKING, message, eventMetadata(metadata, event));
        if (isPause(message)) pause = message;
        else if (event.author !== 'user') answer = message;
      }
    } catch (error) {
      if (!controller.signal.aborted) failure ??= thrownMessage(error, taskId, contextId);
    } finally {
      this.#running.delete(taskId);
    }
    // A canceled run: `cancelTask` published the final status.
    if (controller.signal.aborted) return;
    if (failure) {
      status(TaskState.TASK_STATE_FAILED, failure);
    } else if (pause) {
      status(TaskState.TASK_STATE_INPUT_REQUIRED, pause);
    } else {
      if (answer) {
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: {
              artifactId: randomUUID(),
              name: 'response',
              description: '',
              parts: answer.parts,
              metadata: undefined,
              extensions: [],
            },
            append: false,
            lastChunk: true,
            metadata,
          }),
        );
      }
      status(TaskState.TASK_STATE_COMPLETED);
    }
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const running = this.#running.get(taskId);
    running?.controller.abort();
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: running?.contextId ?? '',
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: now() },
        metadata: undefined,
      }),
    );
  };
}

function now(): string {
  return new Date().toISOString();
}

async function ensureSession(runner: Runner, userId: string, sessionId: string): Promise<void> {
  const request = { appName: runner.appName, userId, sessionId };
  const session = await runner.sessionService.getSession(request);
  if (!session) await runner.sessionService.createSession(request);
}

/** True when the message holds a long-running function call: the task waits for input. */
function isPause(message: Message): boolean {
  return message.parts.some(
    (part) =>
      part.content?.$case === 'data' &&
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

function errorMessage(event: Event, taskId: string, contextId: string): Message {
  return agentText(
    event.errorMessage ?? `The agent failed (${event.errorCode ?? 'error'}).`,
    event.errorCode,
    taskId,
    contextId,
  );
}

function thrownMessage(error: unknown, taskId: string, contextId: string): Message {
  const text = error instanceof Error ? error.message : String(error);
  return agentText(text, AdkError.isInstance(error) ? error.code : 'INTERNAL', taskId, contextId);
}

function agentText(
  text: string,
  errorCode: string | undefined,
  taskId: string,
  contextId: string,
): Message {
  return {
    messageId: randomUUID(),
    role: Role.ROLE_AGENT,
    parts: [
      { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' },
    ],
    taskId,
    contextId,
    metadata: errorCode === undefined ? undefined : { [AdkMetadataKey.errorCode]: errorCode },
    extensions: [],
    referenceTaskIds: [],
  };
}
