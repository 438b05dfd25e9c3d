import { randomUUID } from 'node:crypto';

import type { RunConfig, Runner } from '@adk/core';

import { a2aMessageToContent } from '../convert/messages';
import { A2aRpcError } from '../errors/a2a-rpc-error';
import { A2aErrorCode } from '../protocol/json-rpc';
import {
  isTerminalTaskState,
  type A2aMessageSendParams,
  type A2aTask,
  type A2aTaskQueryParams,
} from '../protocol/types';
import { runTask } from './run-task';
import { TaskRecord, type TaskListener, type TaskStore } from './task-store';

/** What the server knows about the caller of one request. */
export interface A2aRequestContext {
  /** The conversation (the ADK session id). */
  contextId: string;
  /** The HTTP request (headers, for example an authenticated user). */
  request: Request;
}

/** Decides the ADK user id a request runs as. */
export type A2aUserIdResolver = (context: A2aRequestContext) => string | Promise<string>;

/** The A2A user id of the Python ADK: one user per conversation. */
export const defaultA2aUserId: A2aUserIdResolver = ({ contextId }) => `A2A_USER_${contextId}`;

/** Options of {@link A2aRequestHandler}. */
export interface A2aRequestHandlerOptions {
  runner: Runner;
  store: TaskStore;
  userId: A2aUserIdResolver;
  runConfig?: Partial<RunConfig>;
}

/** The A2A methods over a runner and a task store, independent of HTTP. */
export class A2aRequestHandler {
  readonly #options: A2aRequestHandlerOptions;

  constructor(options: A2aRequestHandlerOptions) {
    this.#options = options;
  }

  /**
   * `message/send`: start (or continue) a task and, unless `configuration.blocking` is `false`,
   * wait for it to complete, fail or need input.
   */
  async sendMessage(params: A2aMessageSendParams, request: Request): Promise<A2aTask> {
    const { record } = await this.startTask(params, request);
    if (params.configuration?.blocking !== false) await record.done;
    return record.snapshot(params.configuration?.historyLength);
  }

  /**
   * Start (or continue) the task `params.message` belongs to. `listener`, when given, first
   * receives the task itself, then every event of the run; `unsubscribe` stops that.
   *
   * @throws A2aRpcError for an unknown task (-32001), a task that is running or finished, or a
   *   context that already has a running task (-32600).
   */
  async startTask(
    params: A2aMessageSendParams,
    request: Request,
    listener?: TaskListener,
  ): Promise<{ record: TaskRecord; unsubscribe: () => void }> {
    const { store } = this.#options;
    const message = params.message;
    let record: TaskRecord | undefined;
    if (message.taskId !== undefined) {
      record = this.#get(message.taskId);
      if (message.contextId !== undefined && message.contextId !== record.task.contextId) {
        throw new A2aRpcError({
          rpcCode: A2aErrorCode.invalidParams,
          message: `Invalid params: task ${record.task.id} belongs to context ${record.task.contextId}, not ${message.contextId}.`,
        });
      }
    }
    const contextId = record?.task.contextId ?? message.contextId ?? randomUUID();
    const userId = await this.#options.userId({ contextId, request });
    // Checked after the last await: from here to `runTask` nothing else runs.
    const running = store.runningInContext(contextId);
    if (running) {
      throw new A2aRpcError({
        rpcCode: A2aErrorCode.invalidRequest,
        message: `Context ${contextId} has a running task (${running.task.id}); wait for it to end or cancel it.`,
      });
    }
    if (record && isTerminalTaskState(record.state)) {
      throw new A2aRpcError({
        rpcCode: A2aErrorCode.invalidRequest,
        message: `Task ${record.task.id} is ${record.state}; send a message without taskId to start a new task.`,
      });
    }
    if (!record) {
      record = new TaskRecord({
        kind: 'task',
        id: randomUUID(),
        contextId,
        status: { state: 'submitted', timestamp: new Date().toISOString() },
        history: [],
        artifacts: [],
      });
      store.add(record);
    }
    const stored = { ...message, taskId: record.task.id, contextId };
    (record.task.history ??= []).push(stored);
    let unsubscribe = (): void => {};
    if (listener) {
      listener(record.snapshot());
      unsubscribe = record.subscribe(listener);
    }
    runTask({
      runner: this.#options.runner,
      store,
      record,
      userId,
      newMessage: a2aMessageToContent(stored).content,
      runConfig: this.#options.runConfig,
    });
    return { record, unsubscribe };
  }

  /** `tasks/get`. @throws A2aRpcError -32001 for an unknown task. */
  getTask(params: A2aTaskQueryParams): A2aTask {
    return this.#get(params.id).snapshot(params.historyLength);
  }

  /**
   * `tasks/cancel`: abort the task's run (if any) and mark it `canceled`.
   *
   * @throws A2aRpcError -32001 for an unknown task, -32002 for a task that has already ended.
   */
  cancelTask(params: A2aTaskQueryParams): A2aTask {
    const record = this.#get(params.id);
    if (isTerminalTaskState(record.state)) {
      throw new A2aRpcError({
        rpcCode: A2aErrorCode.taskNotCancelable,
        message: `Task ${record.task.id} is ${record.state} and cannot be canceled.`,
      });
    }
    record.controller?.abort();
    record.setStatus({ state: 'canceled' }, true);
    return record.snapshot(params.historyLength);
  }

  /** The task `id`. @throws A2aRpcError -32001 when the server does not know it. */
  task(id: string): TaskRecord {
    return this.#get(id);
  }

  #get(id: string): TaskRecord {
    const record = this.#options.store.get(id);
    if (!record) {
      throw new A2aRpcError({
        rpcCode: A2aErrorCode.taskNotFound,
        message: `Task not found: ${id}`,
      });
    }
    return record;
  }
}
