import {
  AdkError,
  BaseAgent,
  createEventActions,
  type AfterAgentCallback,
  type AuthCredential,
  type BeforeAgentCallback,
  type Event,
  type InvocationContext,
  type OneOrMany,
  type Part,
} from '@adk/core';
import {
  Role,
  TaskState,
  type AgentCard,
  type Message,
  type StreamResponse,
  type Task,
} from '@a2a-js/sdk';

import { A2aClient, type A2aCallOptions, type A2aClientOptions } from '../client/a2a-client';
import { contentToA2aMessage } from '../convert/messages';
import { toAdkParts } from '../convert/parts';
import { collectRequestParts } from './request-parts';
import { RemoteOutcome, taskStateName } from './remote-outcome';

/** Options of {@link RemoteA2aAgent}. */
export interface RemoteA2aAgentOptions {
  /** Local name of the agent (identifier-like, unique in the tree). */
  name: string;
  /** What the agent does; the parent's model reads it to decide on transfers (default: the card's). */
  description?: string;
  /** The remote agent's card, or the URL of the agent (its card is read from there). */
  agentCard: AgentCard | string;
  /** HTTP settings: a `fetch`, headers (authentication), a time limit, preferred transports. */
  http?: A2aClientOptions;
  /**
   * The user's credential for the remote agent, read from the Runner's `CredentialService` under
   * this key at each run (per app and user): an API key goes in `apiKeyHeader` (default
   * `X-API-Key`), an HTTP or OAuth2 token as `Authorization: Bearer`. A run whose user has none
   * sends no credential (the remote refuses with 401 if it needs one).
   */
  credentialKey?: string;
  /** Header of an API-key credential (default `X-API-Key`). */
  apiKeyHeader?: string;
  /** Stream the exchange (default: when the card says the agent streams) or wait for the task. */
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
  readonly #source: AgentCard | string;
  readonly #http: A2aClientOptions;
  readonly #streaming: boolean | undefined;
  readonly #credentialKey: string | undefined;
  readonly #apiKeyHeader: string;
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
    this.#credentialKey = options.credentialKey;
    this.#apiKeyHeader = options.apiKeyHeader ?? 'X-API-Key';
  }

  /** The client of the remote agent (its card is fetched on first use, and again after a failure). */
  client(): Promise<A2aClient> {
    if (!this.#client) {
      const source = this.#source;
      this.#client =
        typeof source === 'string'
          ? A2aClient.fromUrl(source, this.#http)
          : A2aClient.fromCard(source, this.#http);
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
          : contentToA2aMessage({ role: 'user', parts }, Role.ROLE_USER, {
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
      client = await this.client();
      const call: A2aCallOptions = { signal: ctx.signal };
      const headers = await this.#credentialHeaders(ctx);
      if (headers) call.headers = headers;
      yield* this.#exchange(ctx, client, message, outcome, call);
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
    message: Message,
    outcome: RemoteOutcome,
    call: A2aCallOptions,
  ): AsyncGenerator<Event, void> {
    const streaming = this.#streaming ?? client.card.capabilities?.streaming === true;
    if (!streaming) {
      outcome.addResult(await client.sendMessage({ message }, call));
      return;
    }
    let first = true;
    for await (const event of client.streamMessage({ message }, call)) {
      const snapshot = first && storedPausedTask(event, message.taskId);
      first = false;
      // The stored task a server streams first when a message continues it still asks the old
      // question: it says which task this is, not how it ends.
      if (snapshot) outcome.noteTask(snapshot);
      else outcome.add(event);
      const payload = event.payload;
      if (
        payload?.$case === 'statusUpdate' &&
        payload.value.status?.state === TaskState.TASK_STATE_WORKING &&
        payload.value.status.message?.role === Role.ROLE_AGENT
      ) {
        const parts = progressParts(payload.value.status.message);
        if (parts.length > 0) {
          const progress = this.createEvent(ctx, { role: 'model', parts });
          progress.partial = true;
          yield progress;
        }
      }
      if (outcome.finished) break;
    }
  }

  /** The credential headers of this run's user, from the Runner's credential service. */
  async #credentialHeaders(ctx: InvocationContext): Promise<Record<string, string> | undefined> {
    if (this.#credentialKey === undefined || !ctx.credentialService) return undefined;
    const credential = await ctx.credentialService.loadCredential({
      appName: ctx.appName,
      userId: ctx.userId,
      credentialKey: this.#credentialKey,
    });
    return credential && credentialHeaders(credential, this.#apiKeyHeader);
  }

  #finalEvent(ctx: InvocationContext, outcome: RemoteOutcome): Event {
    if (!outcome.finished) {
      return this.#errorEvent(
        ctx,
        outcome,
        RemoteTaskErrorCode.incomplete,
        `The remote agent ended the exchange before its task finished (state: ${taskStateName(outcome.state)}).`,
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
        `Remote A2A task ${taskStateName(state)}${text ? `: ${text}` : '.'}`,
      );
    }
    const { parts, longRunningToolIds } = outcome.answer();
    const waiting =
      state === TaskState.TASK_STATE_INPUT_REQUIRED || state === TaskState.TASK_STATE_AUTH_REQUIRED;
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
    client.cancelTask(outcome.taskId, { signal: AbortSignal.timeout(5_000) }).catch(() => {});
  }
}

/** The continued task itself, still waiting, as the first event of the stream; else undefined. */
function storedPausedTask(event: StreamResponse, taskId: string | undefined): Task | undefined {
  const payload = event.payload;
  if (taskId === undefined || payload?.$case !== 'task' || payload.value.id !== taskId) {
    return undefined;
  }
  const state = payload.value.status?.state;
  return state === TaskState.TASK_STATE_INPUT_REQUIRED ||
    state === TaskState.TASK_STATE_AUTH_REQUIRED
    ? payload.value
    : undefined;
}

function failureCode(state: TaskState | undefined): string | undefined {
  switch (state) {
    case TaskState.TASK_STATE_FAILED:
      return RemoteTaskErrorCode.failed;
    case TaskState.TASK_STATE_REJECTED:
      return RemoteTaskErrorCode.rejected;
    case TaskState.TASK_STATE_CANCELED:
      return RemoteTaskErrorCode.canceled;
    default:
      return undefined;
  }
}

/** The headers carrying a stored credential. */
function credentialHeaders(
  credential: AuthCredential,
  apiKeyHeader: string,
): Record<string, string> | undefined {
  if (credential.apiKey) return { [apiKeyHeader]: credential.apiKey };
  const token = credential.http?.credentials.token ?? credential.oauth2?.accessToken;
  if (token) return { authorization: `Bearer ${token}` };
  return undefined;
}

/** A progress message's parts: text flagged as thought, so partial text is not taken as the answer. */
function progressParts(message: Message): Part[] {
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
