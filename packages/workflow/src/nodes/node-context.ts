import type { AuthCredential, Event, EventActions, InvocationContext, State } from '@adk/core';
import type { z } from 'zod';

/** A request for human input made by a node (see {@link NodeContext.requestInput}). */
export interface InputRequest {
  /**
   * Id of the request: the id of the `adk_request_input` function call the user answers. Unique
   * within the run; defaults to one derived from the node's execution.
   */
  id?: string;
  /** What to ask the user. */
  message: string;
  /** Extra data shown with the request. */
  payload?: unknown;
  /** Shape of the expected answer (sent to the client as JSON Schema). */
  responseSchema?: z.ZodType;
}

/** Options of {@link NodeContext.runNode}. */
export interface RunNodeOptions {
  /**
   * Names this dynamic execution within its parent (default: a counter per node name). Give a
   * stable key when executions are started in an order that may change between runs.
   */
  key?: string;
  /**
   * Cancels the dynamic node when aborted (it always stops with its parent: the parent's timeout,
   * or the run failing). A cancelled node's output is not stored.
   */
  signal?: AbortSignal;
}

/**
 * What a node receives with its input: the invocation, state (writes become the state delta of
 * the node's output event), events, human input, dynamic nodes and the route to take.
 */
export interface NodeContext {
  /** The node's name. */
  readonly nodeName: string;
  /** The execution's path in the run: `node@n`, or `parent@n/child@m` for a dynamic node. */
  readonly path: string;
  /** 1 for the first attempt, 2 for the first retry... */
  readonly attempt: number;
  /** True when the node runs again because the answer to its input request arrived. */
  readonly resumed: boolean;
  /**
   * True when the input is the user's message that started the workflow (the node follows
   * `START`); an agent node then does not repeat it in the session.
   */
  readonly inputIsUserMessage: boolean;
  /**
   * The branch of this execution (`<workflow branch>.<path>`, `/` written `.`): agents the node
   * runs use it, so the histories of concurrent executions stay apart, as in the Python ADK.
   */
  readonly branch: string;
  /** The invocation the workflow runs in (session, services, run settings). */
  readonly invocation: InvocationContext;
  /** Aborted when the run is cancelled, the workflow fails elsewhere, or the node times out. */
  readonly signal: AbortSignal;
  /** The credential of the node's `authConfig` (undefined without one). */
  readonly credential: AuthCredential | undefined;
  /** Session state; writes go to {@link actions}, stored with the node's output event. */
  readonly state: State;
  /** The actions of the node's output event (state and artifact deltas). */
  readonly actions: EventActions;
  /** The route(s) to take after this node; edges with a matching `route` are followed. */
  route: string | readonly string[] | undefined;
  /** Emit an event now (stored in the session before this resolves). */
  emit(event: Event): Promise<void>;
  /**
   * Ask the user for input: the run pauses with a long-running `adk_request_input` call once the
   * node returns (its return value is then ignored). The answer resumes the node: by default it
   * becomes the node's output; with `rerunOnResume` the node runs again and reads it with
   * {@link resumeInput}.
   */
  requestInput(request: InputRequest): void;
  /**
   * Pause the node until the function calls `requestIds` (made by an agent or tool the node ran,
   * with long-running ids) are answered; the node then runs again.
   */
  waitFor(requestIds: readonly string[]): void;
  /**
   * Pause the node until the user's next message (a plain message, not an answer to a call); the
   * node then runs again (a task agent talking with the user uses this).
   */
  waitForMessage(): void;
  /** The user's answer to the request `id`, when this execution was resumed by it. */
  resumeInput(id: string): unknown;
  /**
   * Run another node now (a dynamic node) and wait for its output. Its output is stored, so a
   * resumed run reuses it instead of running it again.
   */
  runNode<O = unknown>(node: unknown, input: unknown, options?: RunNodeOptions): Promise<O>;
}
