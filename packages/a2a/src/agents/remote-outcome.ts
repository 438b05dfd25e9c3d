import type { Part } from '@adk/core';
import {
  Role,
  TaskState,
  type Artifact,
  type Message,
  type StreamResponse,
  type Task,
} from '@a2a-js/sdk';

import { toAdkParts } from '../convert/parts';

/** A task state's name as the 0.3 protocol spelled it (`input-required`...), for messages. */
export function taskStateName(state: TaskState | undefined): string {
  switch (state) {
    case TaskState.TASK_STATE_SUBMITTED:
      return 'submitted';
    case TaskState.TASK_STATE_WORKING:
      return 'working';
    case TaskState.TASK_STATE_COMPLETED:
      return 'completed';
    case TaskState.TASK_STATE_FAILED:
      return 'failed';
    case TaskState.TASK_STATE_CANCELED:
      return 'canceled';
    case TaskState.TASK_STATE_INPUT_REQUIRED:
      return 'input-required';
    case TaskState.TASK_STATE_REJECTED:
      return 'rejected';
    case TaskState.TASK_STATE_AUTH_REQUIRED:
      return 'auth-required';
    default:
      return 'unknown';
  }
}

/** States after which a task waits or is over: the exchange of this turn is complete. */
function ends(state: TaskState): boolean {
  return state !== TaskState.TASK_STATE_SUBMITTED && state !== TaskState.TASK_STATE_WORKING;
}

/** What a remote agent answered, gathered from a task, a message or the events of a stream. */
export class RemoteOutcome {
  contextId: string | undefined;
  taskId: string | undefined;
  /** `undefined` until a task or a status arrives; `COMPLETED` for a plain message answer. */
  state: TaskState | undefined;
  /** The latest status message (or the message the agent answered with). */
  statusMessage: Message | undefined;
  /** Whether the answer is complete: a message, or a terminal or paused task. */
  finished = false;
  readonly #artifacts = new Map<string, Artifact>();
  #lastAgentMessage: Message | undefined;

  constructor(contextId: string | undefined) {
    this.contextId = contextId;
  }

  /** Take a `message/send` result into account. */
  addResult(result: Message | Task): void {
    if ('messageId' in result) this.#addMessage(result);
    else this.#addTask(result);
  }

  /** Note which task and context this is, and nothing of its state (a stored snapshot). */
  noteTask(task: Task): void {
    this.contextId = task.contextId || this.contextId;
    this.taskId = task.id || this.taskId;
  }

  /** Take one stream event into account. */
  add(event: StreamResponse): void {
    const payload = event.payload;
    switch (payload?.$case) {
      case 'message':
        this.#addMessage(payload.value);
        break;
      case 'task':
        this.#addTask(payload.value);
        break;
      case 'statusUpdate': {
        const update = payload.value;
        this.contextId = update.contextId || this.contextId;
        this.taskId = update.taskId || this.taskId;
        if (!update.status) break;
        this.state = update.status.state;
        const message = update.status.message;
        if (message) {
          this.statusMessage = message;
          if (message.role === Role.ROLE_AGENT) this.#lastAgentMessage = message;
        }
        if (ends(update.status.state)) this.finished = true;
        break;
      }
      case 'artifactUpdate': {
        const update = payload.value;
        this.contextId = update.contextId || this.contextId;
        this.taskId = update.taskId || this.taskId;
        if (!update.artifact) break;
        const known = this.#artifacts.get(update.artifact.artifactId);
        if (known && update.append) known.parts.push(...update.artifact.parts);
        else this.#artifacts.set(update.artifact.artifactId, structuredClone(update.artifact));
        break;
      }
      default:
        break;
    }
  }

  /** The answer as ADK parts: the artifacts' parts, else the status message's, else the last agent message's. */
  answer(): { parts: Part[]; longRunningToolIds: string[] } {
    const artifactParts = [...this.#artifacts.values()].flatMap((artifact) => artifact.parts);
    if (artifactParts.length > 0 && this.state === TaskState.TASK_STATE_COMPLETED) {
      return toAdkParts(artifactParts);
    }
    const message =
      this.statusMessage?.role === Role.ROLE_AGENT ? this.statusMessage : this.#lastAgentMessage;
    if (message) return toAdkParts(message.parts);
    return toAdkParts(artifactParts);
  }

  /** The text of the latest status message, for error messages. */
  statusText(): string {
    return (this.statusMessage?.parts ?? [])
      .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
      .join('')
      .trim();
  }

  #addMessage(message: Message): void {
    this.contextId = message.contextId || this.contextId;
    this.taskId = message.taskId || this.taskId;
    this.statusMessage = message;
    this.state = TaskState.TASK_STATE_COMPLETED;
    this.finished = true;
  }

  #addTask(task: Task): void {
    this.contextId = task.contextId;
    this.taskId = task.id;
    this.state = task.status?.state;
    for (const artifact of task.artifacts ?? []) {
      this.#artifacts.set(artifact.artifactId, structuredClone(artifact));
    }
    const agentMessages = (task.history ?? []).filter(
      (message) => message.role === Role.ROLE_AGENT,
    );
    this.#lastAgentMessage = agentMessages.at(-1) ?? this.#lastAgentMessage;
    if (task.status?.message) this.statusMessage = task.status.message;
    else if (this.state === TaskState.TASK_STATE_COMPLETED) this.statusMessage = undefined;
    if (this.state !== undefined && ends(this.state)) this.finished = true;
  }
}
