import { TaskState, type ListTasksRequest, type ListTasksResponse, type Task } from '@a2a-js/sdk';
import { resolveUserScope, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';

const DEFAULT_PAGE_SIZE = 50;

/**
 * The default task store of `createA2aServer`: tasks in memory, scoped by tenant and caller as
 * the A2A SDK's stores are, and bounded: past `maxTasks` the least recently saved task is
 * forgotten (a server up for months must not grow with every task it ever ran). The SDK's own
 * in-memory store keeps every task forever; use a SQL store (`createA2aSqlStores`) to keep them
 * all across restarts.
 */
export class BoundedTaskStore implements TaskStore {
  /** `<tenant>\0<owner>\0<taskId>` → task, in save order (oldest first). */
  readonly #tasks = new Map<string, Task>();

  constructor(readonly maxTasks: number) {}

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const key = `${scopeOf(context)}\u0000${task.id}`;
    this.#tasks.delete(key);
    this.#tasks.set(key, structuredClone(task));
    for (const oldest of this.#tasks.keys()) {
      if (this.#tasks.size <= this.maxTasks) break;
      this.#tasks.delete(oldest);
    }
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const task = this.#tasks.get(`${scopeOf(context)}\u0000${taskId}`);
    return task && structuredClone(task);
  }

  /** The caller's tasks, newest status first, filtered and paged as `tasks/list` asks. */
  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const prefix = `${scopeOf(context)}\u0000`;
    const after = params.statusTimestampAfter
      ? new Date(params.statusTimestampAfter).getTime()
      : undefined;
    let tasks: Task[] = [];
    for (const [key, task] of this.#tasks) {
      if (!key.startsWith(prefix)) continue;
      if (params.contextId && task.contextId !== params.contextId) continue;
      if (
        params.status !== undefined &&
        params.status !== TaskState.TASK_STATE_UNSPECIFIED &&
        task.status?.state !== params.status
      ) {
        continue;
      }
      if (after !== undefined && !(Date.parse(task.status?.timestamp ?? '') > after)) continue;
      tasks.push(task);
    }
    tasks.sort((a, b) => {
      const order = (b.status?.timestamp ?? '').localeCompare(a.status?.timestamp ?? '');
      return order !== 0 ? order : b.id.localeCompare(a.id);
    });
    const totalSize = tasks.length;
    if (params.pageToken) {
      const cursor = Buffer.from(params.pageToken, 'base64url').toString();
      const index = tasks.findIndex((task) => cursorOf(task) === cursor);
      tasks = index === -1 ? [] : tasks.slice(index + 1);
    }
    const pageSize = params.pageSize || DEFAULT_PAGE_SIZE;
    const page = tasks.slice(0, pageSize).map((task) => {
      const copy = structuredClone(task);
      if (!params.includeArtifacts) copy.artifacts = [];
      if (params.historyLength !== undefined) {
        copy.history = params.historyLength === 0 ? [] : copy.history.slice(-params.historyLength);
      }
      return copy;
    });
    const last = page.at(-1);
    return {
      tasks: page,
      nextPageToken:
        last && tasks.length > page.length ? Buffer.from(cursorOf(last)).toString('base64url') : '',
      pageSize,
      totalSize,
    };
  }
}

function scopeOf(context: ServerCallContext): string {
  return `${context.tenant ?? ''}\u0000${resolveUserScope(context)}`;
}

function cursorOf(task: Task): string {
  return `${task.status?.timestamp ?? ''}|${task.id}`;
}
