import {
  DeltaState,
  type AuthCredential,
  createEventActions,
  type Event,
  type EventActions,
  type InvocationContext,
  type State,
} from '@adk/core';

import type { InputRequest, NodeContext, RunNodeOptions } from '../nodes/node-context';

const NONE: readonly never[] = Object.freeze([]);

/** @internal What a node context delegates to its run. */
export interface NodeContextHost {
  /** The run id of a node's first execution (1, as Python; 0 in runs stored before). */
  readonly firstRunId: number;
  emit(event: Event): Promise<void>;
  runNode(
    parent: NodeContextImpl,
    node: unknown,
    input: unknown,
    key: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<unknown>;
}

/** @internal The {@link NodeContext} of one attempt of one node execution. */
export class NodeContextImpl implements NodeContext {
  route: string | readonly string[] | undefined = undefined;
  requests: readonly InputRequest[] = NONE;
  waitingOn: readonly string[] = NONE;
  private ownActions: EventActions | undefined;
  awaitingMessage = false;
  /** The credential of the node's `authConfig`, found before it runs. */
  credential: AuthCredential | undefined = undefined;
  /** Set once the attempt is over (timed out): later emits are dropped. */
  closed = false;
  private stateView: State | undefined;
  private dynamicCounters: Map<string, number> | undefined;

  constructor(
    private readonly host: NodeContextHost,
    readonly invocation: InvocationContext,
    readonly nodeName: string,
    readonly path: string,
    readonly attempt: number,
    readonly resumed: boolean,
    readonly inputIsUserMessage: boolean,
    readonly signal: AbortSignal,
    private readonly resumeInputs: ReadonlyMap<string, unknown>,
  ) {}

  /** The actions of the node's output event (created on first use). */
  get actions(): EventActions {
    return (this.ownActions ??= createEventActions());
  }

  /** The actions, when the node used them. */
  get usedActions(): EventActions | undefined {
    return this.ownActions;
  }

  get branch(): string {
    const own = this.path.replaceAll('/', '.');
    const parent = this.invocation.branch;
    return parent === undefined ? own : `${parent}.${own}`;
  }

  get state(): State {
    return (this.stateView ??= new DeltaState(this.invocation.session, this.actions.stateDelta));
  }

  async emit(event: Event): Promise<void> {
    if (this.closed) return;
    await this.host.emit(event);
  }

  requestInput(request: InputRequest): void {
    this.requests = [...this.requests, request];
  }

  waitFor(requestIds: readonly string[]): void {
    this.waitingOn = [...this.waitingOn, ...requestIds];
  }

  waitForMessage(): void {
    this.awaitingMessage = true;
  }

  resumeInput(id: string): unknown {
    return this.resumeInputs.get(id);
  }

  runNode<O = unknown>(node: unknown, input: unknown, options: RunNodeOptions = {}): Promise<O> {
    return this.host.runNode(this, node, input, options.key, options.signal) as Promise<O>;
  }

  /** The path of this execution's next dynamic child named `name`. */
  childPath(name: string, key: string | undefined): string {
    if (key !== undefined) return `${this.path}/${name}@${key}`;
    this.dynamicCounters ??= new Map();
    const count = this.dynamicCounters.get(name) ?? this.host.firstRunId;
    this.dynamicCounters.set(name, count + 1);
    return `${this.path}/${name}@${count}`;
  }
}
