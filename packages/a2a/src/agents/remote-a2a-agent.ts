import {
  AdkError,
  BaseAgent,
  createEventActions,
  type AfterAgentCallback,
  type BeforeAgentCallback,
  type Event,
  type InvocationContext,
  type OneOrMany,
  type Part,
} from '@adk/core';

import { A2aClient } from '../client/a2a-client';
import type { A2aHttpOptions } from '../client/fetch-agent-card';
import { contentToA2aMessage } from '../convert/messages';
import { toAdkParts } from '../convert/parts';
import type { A2aAgentCard, A2aMessage, A2aTaskState } from '../protocol/types';
import { collectRequestParts } from './request-parts';
import { RemoteOutcome } from './remote-outcome';

/** Options of {@link RemoteA2aAgent}. */
export interface RemoteA2aAgentOptions {
  /** Local name of the agent (identifier-like, unique in the tree). */
  name: string;
  /** What the agent does; the parent's model reads it to decide on transfers (default: the card's). */
  description?: string;
  /** The remote agent's card, or the URL of the card (or of the agent, under which it is looked up). */
  agentCard: A2aAgentCard | string;
  /** HTTP settings: a `fetch`, headers (authentication), a time limit. */
  http?: A2aHttpOptions;
  /** Use `message/stream` (default: when the card says the agent streams) or `message/send`. */
  streaming?: boolean;
  beforeAgentCallback?: OneOrMany<BeforeAgentCallback>;
  afterAgentCallback?: OneOrMany<AfterAgentCallback>;
}

/** Error codes of the events a {@link RemoteA2aAgent} yields when the remote task does not complete. */
export const RemoteTaskErrorCode = {
  failed: 'A2A_TASK_FAILED',
  rejected: 'A2A_TASK_REJECTED',
  canceled: 'A2A_TASK_CANCELED',
  incomplete: 'A2A_TASK_INCOMPLETE',
} as const;

/** The session state keys where a remote agent's conversation is remembered. */
export function remoteStateKeys(agentName: string): { contextId: string; taskId: string } {
  return { contextId: `a2a:${agentName}:contextId`, taskId: `a2a:${agentName}:taskId` };
}

/**
 * A remote A2A agent used as a local agent: as a sub-agent (the parent's model transfers to it) or,
 * wrapped in core's `AgentTool`, as a tool.
 *
 * Each run sends the remote agent one message: the user's messages (and other agents' text, as
 * context) since this agent last answered. The remote `contextId` is kept in session state
 * (`a2a:<name>:contextId`), so later turns continue the same remote conversation; a task the
 * remote left waiting for input is continued with its `taskId`. Streamed status messages surface
 * as partial events (their text flagged as thought); the answer (the task's artifacts, or its last
 * message) is one stored event. A long-running function call the remote waits on keeps its id, so
 * the user's function response is routed back to this agent and on to the remote task.
 *
 * Failures become error events, never exceptions: an unreachable agent or a bad card
 * (`A2A_TRANSPORT_ERROR`, `A2A_AGENT_CARD_INVALID`), a JSON-RPC error (`A2A_RPC_ERROR`), a remote
 * task that failed, was rejected or canceled ({@link RemoteTaskErrorCode}). Aborting the run also
 * asks the remote agent to cancel its task.
 *
 * @example
 * ```ts
 * const billing = new RemoteA2aAgent({
 *   name: 'billing',
 *   description: 'Answers billing questions.',
 *   agentCard: 'http://127.0.0.1:9000',
 * });
 * const root = new LlmAgent({ name: 'root', model, subAgents: [billing] });
 * ```
 */
export class RemoteA2aAgent extends BaseAgent {
  readonly #source: A2aAgentCard | string;
  readonly #http: A2aHttpOptions;
  readonly #streaming: boolean | undefined;
  #client: Promise<A2aClient> | undefined;

  constructor(options: RemoteA2aAgentOptions) {
    super({
      name: options.name,
      description:
        options.description ??
        (typeof options.agentCard === 'string' ? undefined : options.agentCard.description),
      beforeAgentCallback: options.beforeAgentCallback,
      afterAgentCallback: options.afterAgentCallback,
    });
    this.#source = options.agentCard;
    this.#http = options.http ?? {};
    this.#streaming = options.streaming;
  }

  /** The client of the remote agent (its card is fetched on first use, and again after a failure). */
  client(signal?: AbortSignal): Promise<A2aClient> {
    if (!this.#client) {
      const source = this.#source;
      this.#client =
        typeof source === 'string'
          ? A2aClient.fromUrl(source, { ...this.#http, signal })
          : Promise.resolve().then(() => new A2aClient(source, this.#http));
      this.#client.catch(() => (this.#client = undefined));
    }
    return this.#client;
  }

  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    const keys = remoteStateKeys(this.name);
    const state = ctx.session.state;
    const contextId =
      typeof state[keys.contextId] === 'string' ? (state[keys.contextId] as string) : undefined;
    const pendingTaskId =
      typeof state[keys.taskId] === 'string' ? (state[keys.taskId] as string) : undefined;
    const outcome = new RemoteOutcome(contextId);
    let client: A2aClient | undefined;
    try {
      const parts = collectRequestParts(ctx, this.name);
      const message =
        parts.length === 0
          ? undefined
          : contentToA2aMessage({ role: 'user', parts }, 'user', {
              contextId,
              taskId: pendingTaskId,
            });
      if (!message) {
        yield this.#errorEvent(
          ctx,
          outcome,
          'A2A_NO_MESSAGE',
          'There is no message to send to the remote agent.',
        );
        return;
      }
      client = await this.client(ctx.signal);
      yield* this.#exchange(ctx, client, message, outcome);
      if (!ctx.signal.aborted) yield this.#finalEvent(ctx, outcome);
    } catch (error) {
      if (ctx.signal.aborted) return;
      const code = AdkError.isInstance(error) ? error.code : 'A2A_CLIENT_ERROR';
      yield this.#errorEvent(
        ctx,
        outcome,
        code,
        error instanceof Error ? error.message : String(error),
      );
    } finally {
      // Aborted, or the caller stopped reading (which is how a Runner ends an aborted run): the
      // remote task would run on for no one.
      if (client && !outcome.finished) this.#cancelRemote(client, outcome);
    }
  }

  async *#exchange(
    ctx: InvocationContext,
    client: A2aClient,
    message: A2aMessage,
    outcome: RemoteOutcome,
  ): AsyncGenerator<Event, void> {
    const streaming = this.#streaming ?? client.card.capabilities?.streaming === true;
    if (!streaming) {
      outcome.add(await client.sendMessage({ message }, { signal: ctx.signal }));
      return;
    }
    for await (const event of client.streamMessage({ message }, { signal: ctx.signal })) {
      outcome.add(event);
      if (
        event.kind === 'status-update' &&
        !event.final &&
        event.status.message?.role === 'agent'
      ) {
        const parts = progressParts(event.status.message);
        if (parts.length > 0) {
          const progress = this.createEvent(ctx, { role: 'model', parts });
          progress.partial = true;
          yield progress;
        }
      }
    }
  }

  #finalEvent(ctx: InvocationContext, outcome: RemoteOutcome): Event {
    if (!outcome.finished) {
      return this.#errorEvent(
        ctx,
        outcome,
        RemoteTaskErrorCode.incomplete,
        `The remote agent ended the exchange before its task finished (state: ${outcome.state ?? 'unknown'}).`,
      );
    }
    const state = outcome.state;
    const failure = failureCode(state);
    if (failure) {
      const text = outcome.statusText();
      return this.#errorEvent(
        ctx,
        outcome,
        failure,
        `Remote A2A task ${state}${text ? `: ${text}` : '.'}`,
      );
    }
    const { parts, longRunningToolIds } = outcome.answer();
    const waiting = state === 'input-required' || state === 'auth-required';
    const event = this.createEvent(
      ctx,
      parts.length > 0 ? { role: 'model', parts } : undefined,
      this.#actions(outcome, waiting),
    );
    if (longRunningToolIds.length > 0) event.longRunningToolIds = longRunningToolIds;
    event.customMetadata = metadataOf(outcome);
    return event;
  }

  #errorEvent(
    ctx: InvocationContext,
    outcome: RemoteOutcome,
    errorCode: string,
    errorMessage: string,
  ): Event {
    const event = this.createEvent(ctx, undefined, this.#actions(outcome, false));
    event.errorCode = errorCode;
    event.errorMessage = errorMessage;
    event.customMetadata = metadataOf(outcome);
    return event;
  }

  /** Remember the remote conversation; forget the task unless it waits for input. */
  #actions(outcome: RemoteOutcome, waiting: boolean) {
    const keys = remoteStateKeys(this.name);
    const stateDelta: Record<string, unknown> = {};
    if (outcome.contextId !== undefined) stateDelta[keys.contextId] = outcome.contextId;
    stateDelta[keys.taskId] = waiting ? (outcome.taskId ?? null) : null;
    return createEventActions({ stateDelta });
  }

  #cancelRemote(client: A2aClient, outcome: RemoteOutcome): void {
    if (outcome.taskId === undefined || outcome.finished) return;
    // Best effort: the local run is over whatever the remote answers.
    client
      .cancelTask({ id: outcome.taskId }, { signal: AbortSignal.timeout(5_000) })
      .catch(() => {});
  }
}

function failureCode(state: A2aTaskState | undefined): string | undefined {
  switch (state) {
    case 'failed':
      return RemoteTaskErrorCode.failed;
    case 'rejected':
      return RemoteTaskErrorCode.rejected;
    case 'canceled':
      return RemoteTaskErrorCode.canceled;
    default:
      return undefined;
  }
}

/** A progress message's parts: text flagged as thought, so partial text is not taken as the answer. */
function progressParts(message: A2aMessage): Part[] {
  return toAdkParts(message.parts).parts.map((part) =>
    part.text === undefined ? part : { ...part, thought: true },
  );
}

function metadataOf(outcome: RemoteOutcome): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  if (outcome.contextId !== undefined) metadata['a2a:context_id'] = outcome.contextId;
  if (outcome.taskId !== undefined) metadata['a2a:task_id'] = outcome.taskId;
  return metadata;
}
