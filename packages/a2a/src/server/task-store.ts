import type { A2aStreamEvent, A2aTask, A2aTaskState, A2aTaskStatus } from '../protocol/types';

/** Receives the events of a task while it runs. */
export type TaskListener = (event: A2aStreamEvent) => void;

/** A task the server knows, and its run when one is under way. */
export class TaskRecord {
  readonly task: A2aTask;
  /** Aborts the current run; set while the task runs. */
  controller: AbortController | undefined;
  /** Settles when the current run has ended (its final event published). */
  done: Promise<void> = Promise.resolve();
  readonly #listeners = new Set<TaskListener>();

  constructor(task: A2aTask) {
    this.task = task;
  }

  get running(): boolean {
    return this.controller !== undefined;
  }

  get state(): A2aTaskState {
    return this.task.status.state;
  }

  /** Listen to the task's next events; returns the function that stops listening. */
  subscribe(listener: TaskListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Send `event` to every listener. Each gets its own copy, taken now. */
  publish(event: A2aStreamEvent): void {
    for (const listener of this.#listeners) listener(structuredClone(event));
  }

  /** Change the task's status (stamped with the current time) and publish the change. */
  setStatus(status: A2aTaskStatus, final: boolean, metadata?: Record<string, unknown>): void {
    const stamped: A2aTaskStatus = { ...status, timestamp: new Date().toISOString() };
    this.task.status = stamped;
    const history = (this.task.history ??= []);
    const messageId = stamped.message?.messageId;
    if (stamped.message && !history.some((message) => message.messageId === messageId)) {
      history.push(stamped.message);
    }
    this.publish({
      kind: 'status-update',
      taskId: this.task.id,
      contextId: this.task.contextId,
      status: stamped,
      final,
      ...(metadata ? { metadata } : {}),
    });
  }

  /** A copy of the task, with only the last `historyLength` messages when given. */
  snapshot(historyLength?: number): A2aTask {
    const copy = structuredClone(this.task);
    if (historyLength !== undefined && copy.history) {
      copy.history = historyLength === 0 ? [] : copy.history.slice(-historyLength);
    }
    return copy;
  }
}

/**
 * The tasks of one server, in memory. Running tasks are always kept; beyond `maxTasks`, the
 * oldest tasks that are not running are forgotten (`tasks/get` then answers "task not found").
 */
export class TaskStore {
  readonly #tasks = new Map<string, TaskRecord>();
  readonly #running = new Map<string, TaskRecord>();
  readonly #maxTasks: number;

  constructor(maxTasks = 10_000) {
    this.#maxTasks = maxTasks;
  }

  get(id: string): TaskRecord | undefined {
    return this.#tasks.get(id);
  }

  /** The running task of the context, if any (one run per context at a time). */
  runningInContext(contextId: string): TaskRecord | undefined {
    return this.#running.get(contextId);
  }

  /** Mark `record` running under `controller`. */
  begin(record: TaskRecord, controller: AbortController): void {
    record.controller = controller;
    this.#running.set(record.task.contextId, record);
  }

  /** Mark `record` no longer running. */
  end(record: TaskRecord): void {
    record.controller = undefined;
    if (this.#running.get(record.task.contextId) === record) {
      this.#running.delete(record.task.contextId);
    }
  }

  add(record: TaskRecord): void {
    this.#tasks.set(record.task.id, record);
    if (this.#tasks.size <= this.#maxTasks) return;
    for (const [id, old] of this.#tasks) {
      if (this.#tasks.size <= this.#maxTasks) break;
      if (!old.running && old !== record) this.#tasks.delete(id);
    }
  }

  /** Abort every running task (the server is closing). */
  abortAll(): void {
    for (const record of this.#running.values()) record.controller?.abort();
  }
}
