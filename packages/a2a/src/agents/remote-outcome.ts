import type { Part } from '@adk/core';

import { toAdkParts } from '../convert/parts';
import type {
  A2aArtifact,
  A2aMessage,
  A2aStreamEvent,
  A2aTask,
  A2aTaskState,
} from '../protocol/types';

/** What a remote agent answered, gathered from a task, a message or the events of a stream. */
export class RemoteOutcome {
  contextId: string | undefined;
  taskId: string | undefined;
  /** `undefined` until a task or a final status arrives; `completed` for a plain message answer. */
  state: A2aTaskState | undefined;
  /** The latest status message (or the message the agent answered with). */
  statusMessage: A2aMessage | undefined;
  /** Whether the answer is complete: a message, a terminal or paused task, or a `final` update. */
  finished = false;
  readonly #artifacts = new Map<string, A2aArtifact>();
  #lastAgentMessage: A2aMessage | undefined;

  constructor(contextId: string | undefined) {
    this.contextId = contextId;
  }

  /** Take one result or stream event into account. */
  add(event: A2aStreamEvent): void {
    switch (event.kind) {
      case 'message':
        this.contextId = event.contextId ?? this.contextId;
        this.taskId = event.taskId ?? this.taskId;
        this.statusMessage = event;
        this.state = 'completed';
        this.finished = true;
        break;
      case 'task':
        this.#addTask(event);
        break;
      case 'status-update':
        this.contextId = event.contextId;
        this.taskId = event.taskId;
        this.state = event.status.state;
        if (event.status.message) {
          this.statusMessage = event.status.message;
          if (event.status.message.role === 'agent') this.#lastAgentMessage = event.status.message;
        }
        if (event.final) this.finished = true;
        break;
      case 'artifact-update': {
        this.contextId = event.contextId;
        this.taskId = event.taskId;
        const known = this.#artifacts.get(event.artifact.artifactId);
        if (known && event.append) known.parts.push(...event.artifact.parts);
        else this.#artifacts.set(event.artifact.artifactId, structuredClone(event.artifact));
        break;
      }
      default:
        break;
    }
  }

  /** The answer as ADK parts: the artifacts' parts, else the status message's, else the last agent message's. */
  answer(): { parts: Part[]; longRunningToolIds: string[] } {
    const artifactParts = [...this.#artifacts.values()].flatMap((artifact) => artifact.parts);
    if (artifactParts.length > 0 && this.state === 'completed') return toAdkParts(artifactParts);
    const message =
      this.statusMessage?.role === 'agent' ? this.statusMessage : this.#lastAgentMessage;
    if (message) return toAdkParts(message.parts);
    return toAdkParts(artifactParts);
  }

  /** The text of the latest status message, for error messages. */
  statusText(): string {
    return (this.statusMessage?.parts ?? [])
      .map((part) => (part.kind === 'text' ? part.text : ''))
      .join('')
      .trim();
  }

  #addTask(task: A2aTask): void {
    this.contextId = task.contextId;
    this.taskId = task.id;
    this.state = task.status.state;
    for (const artifact of task.artifacts ?? []) {
      this.#artifacts.set(artifact.artifactId, structuredClone(artifact));
    }
    const agentMessages = (task.history ?? []).filter((message) => message.role === 'agent');
    this.#lastAgentMessage = agentMessages.at(-1) ?? this.#lastAgentMessage;
    if (task.status.message) this.statusMessage = task.status.message;
    else if (this.state === 'completed') this.statusMessage = undefined;
    if (this.state !== 'submitted' && this.state !== 'working') this.finished = true;
  }
}
