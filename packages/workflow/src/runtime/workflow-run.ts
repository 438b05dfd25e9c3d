import {
  createEvent,
  readStoredWorkflowRun,
  type Event,
  type InvocationContext,
  type NodeInterruptRecord,
  type NodeOutputRecord,
  type StoredNodeError,
  type StoredWorkflowRun,
} from '@adk/core';
import type { z } from 'zod';

import { NodeFailedError } from '../errors/node-failed-error';
import { NodeInterruptedError } from '../errors/node-interrupted-error';
import { DEFAULT_ROUTE, ERROR_ROUTE, START } from '../graph/constants';
import type { GraphEdge, WorkflowGraph } from '../graph/workflow-graph';
import { AgentNode, type NestedRunResult } from '../nodes/agent-node';
import type { BaseNode } from '../nodes/base-node';
import { toNode } from '../nodes/to-node';
import { EventPipe } from './event-pipe';
import { executeNode, type ExecutionSettings } from './execute-node';
import type { NodeContextImpl } from './node-context-impl';
import type { Execution, Outcome } from './outcome';
import {
  INPUT_REJECTED_ERROR_CODE,
  refuseInvalidAnswers,
  type RefusedAnswer,
} from './answer-validation';
import { recordEvent, repliesOf } from './record-events';
import { storedOutcome } from './stored-outcome';

/** @internal What a run reads from its workflow. */
export interface RunnableWorkflow {
  readonly name: string;
  readonly graph: WorkflowGraph;
  readonly outputSchema: z.ZodType | undefined;
  readonly maxConcurrency: number;
  readonly stateSchema: z.ZodType | undefined;
}

/** Prefix of the `longRunningToolIds` entry of a pause that waits for the user's next message. */
const AWAITS_MESSAGE_ID_PREFIX = 'awaits-message:';

/** The abort reason given to nodes still running when the run is over (failed, or stopped). */
const RUN_OVER = Object.freeze({ name: 'WorkflowRunOver', message: 'The workflow run is over.' });

type PipeItem =
  | { type: 'event'; event: Event; ack: () => void }
  | { type: 'settled'; exec: Execution; outcome: Outcome };

/**
 * @internal One run of a workflow in one invocation: a fresh run, or the continuation of the
 * unfinished run stored in the session (finished executions are read back, not run again).
 */
export class WorkflowRun {
  private readonly pipe = new EventPipe<PipeItem>();
  private readonly controller = new AbortController();
  private readonly signal: AbortSignal;
  private readonly stored: StoredWorkflowRun | undefined;
  private readonly replies: Map<string, unknown>;
  private readonly replayOrder = new Map<string, number>();
  private readonly runId: string;
  private readonly queued = new Map<string, Array<{ input: unknown; fromUser: boolean }>>();
  private readonly running = new Set<string>();
  private readonly counters = new Map<string, number>();
  private readonly arrivals = new Map<string, Map<string, unknown>>();
  private readonly replayReady: Array<{ exec: Execution; outcome: Outcome; seq: number }> = [];
  private readonly waiting: string[] = [];
  private inFlight = 0;
  /** Set when the run ended with nodes still running: what they emit or return is dropped. */
  private over = false;
  private awaitingMessage = false;
  /**
   * Index in the session of this invocation's user message: a pause stored after it (this
   * invocation paused, then was resumed after a crash) does not take it as its answer.
   */
  private readonly messageIndex: number;
  /** The latest output of each terminal node that produced one (Python's terminal outputs). */
  private readonly terminalOutputs = new Map<string, { node: BaseNode; output: unknown }>();
  private failure: StoredNodeError | undefined;
  private readonly baseSettings: ExecutionSettings;
  private readonly refused: RefusedAnswer[];

  constructor(
    private readonly workflow: RunnableWorkflow,
    private readonly ctx: InvocationContext,
  ) {
    // One controller per run; the invocation's signal (when it can abort) is forwarded to it.
    this.signal = this.controller.signal;
    if (ctx.signal.aborted) this.controller.abort(ctx.signal.reason);
    this.stored = readStoredWorkflowRun(ctx.session.events, workflow.name, ctx.branch);
    this.replies = this.stored ? repliesOf(ctx) : new Map();
    // A plain message (no answers) resumes nodes waiting for one.
    const plainMessage =
      this.stored !== undefined &&
      this.replies.size === 0 &&
      (ctx.userContent?.parts.some((part) => part.text !== undefined) ?? false);
    this.messageIndex = plainMessage ? userMessageIndex(ctx) : -1;
    // Answers that do not match their request's schema are refused: their nodes stay paused.
    this.refused = this.stored
      ? refuseInvalidAnswers(this.stored, ctx.session.events, this.replies)
      : [];
    this.runId = this.stored?.runId ?? ctx.invocationId;
    let seq = 0;
    for (const path of this.stored?.outputs.keys() ?? []) this.replayOrder.set(path, seq++);
    this.baseSettings = {
      host: this,
      ctx,
      workflowName: workflow.name,
      runId: this.runId,
      signal: this.signal,
      resumed: false,
      resumeInputs: new Map(),
      stateSchema: workflow.stateSchema,
    };
  }

  /** True when this invocation continues a stored run. */
  get continuing(): boolean {
    return this.stored !== undefined;
  }

  /**
   * Run the workflow, yielding its events (each stored by the Runner before the next one is
   * made); returns how the run ended. `input` is ignored when a stored run continues.
   */
  async *execute(
    input: { value: unknown; fromUser: boolean },
    outermost: boolean,
  ): AsyncGenerator<Event, NestedRunResult> {
    const { workflow, ctx } = this;
    const start = this.stored ? { value: this.stored.input, fromUser: false } : input;
    if (!this.stored) {
      yield recordEvent(ctx, workflow.name, {
        kind: 'start',
        workflow: workflow.name,
        run: this.runId,
        input: start.value,
      });
    }
    for (const refusal of this.refused) {
      yield createEvent({
        invocationId: ctx.invocationId,
        author: workflow.name,
        branch: ctx.branch,
        errorCode: INPUT_REJECTED_ERROR_CODE,
        errorMessage: refusal.message,
      });
      // The request is asked again: the node's pause stays open.
      yield recordEvent(ctx, workflow.name, refusal.record, {
        askedAgain: [{ id: refusal.requestId, args: refusal.args }],
        longRunningToolIds: refusal.record.requestIds,
      });
    }
    for (const edge of workflow.graph.outgoing.get(START) ?? []) {
      this.trigger(edge.to, START, start.value, start.fromUser && !this.stored);
    }
    const forward = () => this.controller.abort(ctx.signal.reason);
    ctx.signal.addEventListener('abort', forward, { once: true });
    try {
      for (;;) {
        this.dispatch();
        if (this.replayReady.length > 0) {
          this.replayReady.sort((a, b) => a.seq - b.seq);
          const { exec, outcome } = this.replayReady.shift() as (typeof this.replayReady)[0];
          const event = this.settleEvent(exec, outcome);
          if (event) yield event;
          this.settle(exec, outcome);
          continue;
        }
        // A failure (or a cancellation) ends the run at once: the nodes still running were told
        // to stop, and what they return is not stored.
        if (this.inFlight === 0 || this.failure || this.signal.aborted) break;
        const item = this.pipe.size > 0 ? this.pipe.take() : await this.pipe.next();
        if (item.type === 'event') {
          yield item.event;
          item.ack();
        } else {
          this.inFlight--;
          const event = this.settleEvent(item.exec, item.outcome);
          if (event) yield event;
          this.settle(item.exec, item.outcome);
        }
      }
      // Events the nodes already emitted are work done: they are stored, their outputs are not.
      while (this.pipe.size > 0) {
        const item = this.pipe.take();
        if (item.type !== 'event') continue;
        yield item.event;
        item.ack();
      }
    } finally {
      ctx.signal.removeEventListener('abort', forward);
      // Nodes still running (a failure, or the consumer stopped early) are told to stop.
      if (this.inFlight > 0) this.close();
    }
    return yield* this.finish(outermost);
  }

  /** Cancel the nodes still running and stop listening to them. */
  private close(): void {
    this.over = true;
    if (!this.signal.aborted) this.controller.abort(RUN_OVER);
    while (this.pipe.size > 0) {
      const item = this.pipe.take();
      if (item.type === 'event') item.ack();
    }
  }

  /**
   * The run's end record. A failure is reported once: by the error event of the outermost
   * workflow's end record (a nested run passes its failure to the node that ran it).
   */
  private async *finish(outermost: boolean): AsyncGenerator<Event, NestedRunResult> {
    const { workflow, ctx } = this;
    if (ctx.signal.aborted) {
      return {
        status: 'failed',
        errorCode: 'WORKFLOW_ABORTED',
        errorMessage: 'The run was aborted.',
      };
    }
    const end = (status: 'completed' | 'failed', output?: unknown) =>
      ({ kind: 'end', workflow: workflow.name, run: this.runId, status, output }) as const;
    let failure = this.failure;
    if (!failure && (this.waiting.length > 0 || this.awaitingMessage)) {
      return { status: 'paused', requestIds: this.waiting, awaitsMessage: this.awaitingMessage };
    }
    // As in Python: the output of the one terminal node that produced output; several is an error.
    if (!failure && this.terminalOutputs.size > 1) {
      const names = [...this.terminalOutputs.keys()];
      failure = {
        name: 'WorkflowOutputError',
        code: 'WORKFLOW_MULTIPLE_TERMINAL_OUTPUTS',
        message: `Workflow "${workflow.name}": several terminal nodes produced output (${names.join(', ')}); a workflow has at most one terminal output.`,
        attempts: 1,
      };
    }
    const [result] = this.terminalOutputs.values();
    let output = result?.output;
    if (!failure && workflow.outputSchema) {
      const parsed = workflow.outputSchema.safeParse(output);
      if (parsed.success) output = parsed.data;
      else {
        failure = {
          name: 'NodeDataError',
          code: 'WORKFLOW_NODE_OUTPUT_INVALID',
          message: `Output of workflow "${workflow.name}" does not match its outputSchema: ${parsed.error.message}`,
          attempts: 1,
        };
      }
    }
    if (failure) {
      yield recordEvent(
        ctx,
        workflow.name,
        end('failed'),
        outermost ? { errorCode: failure.code, errorMessage: failure.message } : undefined,
      );
      return {
        status: 'failed',
        errorCode: failure.code,
        errorMessage: failure.message,
        failure,
      };
    }
    const text =
      outermost && output !== undefined && !(result?.node instanceof AgentNode)
        ? typeof output === 'string'
          ? output
          : JSON.stringify(output)
        : undefined;
    yield recordEvent(ctx, workflow.name, end('completed', output), { text });
    return { status: 'completed', output };
  }

  private trigger(target: string, from: string, value: unknown, fromUser: boolean): void {
    const node = this.workflow.graph.nodes.get(target) as BaseNode;
    if (!node.waitsForAllPredecessors) return this.enqueue(target, value, fromUser);
    const arrived = this.arrivals.get(target) ?? new Map<string, unknown>();
    arrived.set(from, value);
    this.arrivals.set(target, arrived);
    const predecessors = this.workflow.graph.predecessors.get(target) ?? [];
    if (predecessors.every((name) => arrived.has(name))) {
      this.arrivals.delete(target);
      this.enqueue(target, Object.fromEntries(arrived), false);
    }
  }

  private enqueue(target: string, input: unknown, fromUser: boolean): void {
    const queue = this.queued.get(target) ?? [];
    queue.push({ input, fromUser });
    this.queued.set(target, queue);
  }

  private dispatch(): void {
    if (this.failure || this.signal.aborted) return;
    const limit = this.workflow.maxConcurrency;
    for (const [name, queue] of this.queued) {
      if (this.running.has(name)) continue;
      if (limit > 0 && this.inFlight >= limit) return;
      const { input, fromUser } = queue.shift() as { input: unknown; fromUser: boolean };
      if (queue.length === 0) this.queued.delete(name);
      const count = this.counters.get(name) ?? 0;
      this.counters.set(name, count + 1);
      this.running.add(name);
      const node = this.workflow.graph.nodes.get(name) as BaseNode;
      this.start({ node, path: `${name}@${count}`, input, fromUser });
    }
  }

  private start(exec: Execution): void {
    const known = storedOutcome(exec, this.stored, this.replies, this.messageIndex);
    if (known.kind === 'outcome') {
      const seq = this.replayOrder.get(exec.path) ?? Number.MAX_SAFE_INTEGER;
      this.replayReady.push({ exec, outcome: known.outcome, seq });
      return;
    }
    this.inFlight++;
    const outcome = executeNode(exec, this.settings(known.resumed));
    if (outcome instanceof Promise) {
      void outcome.then((settled) => {
        if (!this.over) this.pipe.push({ type: 'settled', exec, outcome: settled });
      });
    } else {
      this.pipe.push({ type: 'settled', exec, outcome });
    }
  }

  private settings(resumed: boolean): ExecutionSettings {
    if (resumed) return { ...this.baseSettings, resumed, resumeInputs: this.replies };
    return this.baseSettings;
  }

  /** The event recording `outcome` (unless it was read back from the session). */
  private settleEvent(exec: Execution, outcome: Outcome): Event | undefined {
    this.running.delete(exec.node.name);
    if (outcome.stored) return undefined;
    const handled =
      outcome.kind === 'output' &&
      outcome.error !== undefined &&
      edgePlan(this.workflow.graph, exec.node.name).onError.length > 0;
    return this.outcomeEvent(exec, outcome, handled);
  }

  /** After the outcome's event was stored: follow the edges it selects. */
  private settle(exec: Execution, outcome: Outcome): void {
    const name = exec.node.name;
    if (outcome.kind === 'interrupt') {
      this.waiting.push(...outcome.requestIds);
      if (outcome.awaitsMessage) this.awaitingMessage = true;
      return;
    }
    if (this.failure) return; // the run is failing: nothing more is scheduled
    const plan = edgePlan(this.workflow.graph, name);
    if (outcome.error) {
      const handlers = plan.onError;
      if (handlers.length === 0) {
        this.failure = outcome.error;
        this.controller.abort(RUN_OVER);
        return;
      }
      for (const edge of handlers) this.trigger(edge.to, name, outcome.error, false);
      return;
    }
    const hasOutput = outcome.output !== undefined && outcome.output !== null;
    // A node that waits for its output goes on only once it produced one (or set a route).
    if (exec.node.waitForOutput && !hasOutput && outcome.routes.length === 0) return;
    if (plan.terminal && hasOutput) {
      this.terminalOutputs.set(name, { node: exec.node, output: outcome.output });
    }
    for (const edge of plan.always) this.trigger(edge.to, name, outcome.output, false);
    if (plan.routed.length === 0) return;
    let matched = false;
    for (const edge of plan.routed) {
      if (!edge.routes?.some((route) => outcome.routes.includes(route))) continue;
      matched = true;
      this.trigger(edge.to, name, outcome.output, false);
    }
    if (!matched)
      for (const edge of plan.onDefault) this.trigger(edge.to, name, outcome.output, false);
  }

  /**
   * The event recording `outcome`. A failure is a record, not an error event: the run's end
   * reports it if nothing handles it (`handled`: an error route takes it).
   */
  private outcomeEvent(exec: Execution, outcome: Outcome, handled: boolean): Event {
    const workflow = this.workflow.name;
    if (outcome.kind === 'interrupt') {
      const record: NodeInterruptRecord = {
        kind: 'interrupt',
        workflow,
        run: this.runId,
        path: exec.path,
        node: exec.node.name,
        requestIds: outcome.requestIds,
        own: outcome.own,
      };
      if (outcome.awaitsMessage) record.awaitsMessage = true;
      if (outcome.routes.length > 0) record.route = outcome.routes.join(',');
      // A wait for the user's next message is listed as waiting too (`awaits-message:<path>`,
      // no call): the agents above stop as on any pause, and the Runner gives that message to
      // this workflow (core's `findMessageAwaitingAgent`).
      return recordEvent(this.ctx, workflow, record, {
        actions: outcome.actions,
        requests: outcome.requests,
        longRunningToolIds: outcome.awaitsMessage
          ? [...outcome.requestIds, `${AWAITS_MESSAGE_ID_PREFIX}${exec.path}`]
          : outcome.requestIds,
      });
    }
    const record: NodeOutputRecord = {
      kind: 'output',
      workflow,
      run: this.runId,
      path: exec.path,
      node: exec.node.name,
      output: outcome.output,
      attempts: outcome.attempts,
    };
    if (outcome.routes.length > 0) record.route = outcome.routes.join(',');
    if (outcome.error) {
      record.error = outcome.error;
      if (handled) record.handled = true;
    }
    return recordEvent(this.ctx, workflow, record, outcome.actions);
  }

  /** Emit an event of a node; resolves once the Runner stored it. */
  emit(event: Event): Promise<void> {
    if (this.over) return Promise.resolve();
    return new Promise((ack) => this.pipe.push({ type: 'event', event, ack }));
  }

  /** Run a dynamic node for `parent`; its outcome is stored like a graph node's. */
  async runNode(
    parent: NodeContextImpl,
    value: unknown,
    input: unknown,
    key: string | undefined,
    cancel: AbortSignal | undefined,
  ): Promise<unknown> {
    const node = toNode(value);
    if (!node) {
      throw new NodeFailedError({
        nodeName: parent.nodeName,
        attempts: parent.attempt,
        message: `Node "${parent.nodeName}" asked to run something that is not a node, agent, tool or function.`,
      });
    }
    const exec: Execution = {
      node,
      path: parent.childPath(node.name, key),
      input,
      fromUser: false,
    };
    const known = storedOutcome(exec, this.stored, this.replies, this.messageIndex);
    // A dynamic node runs under its parent's signal (and the one it was given): the parent's
    // timeout, the run's failure or a sibling item's failure cancels it.
    const signal = cancel ? AbortSignal.any([parent.signal, cancel]) : parent.signal;
    const outcome =
      known.kind === 'outcome'
        ? known.outcome
        : await executeNode(exec, { ...this.settings(known.resumed), signal });
    if (!outcome.stored && signal.aborted) {
      // Cancelled: what it returned (or how it failed) is not its result, and is not stored.
      throw new NodeFailedError({
        nodeName: node.name,
        attempts: outcome.attempts,
        causeCode: 'WORKFLOW_NODE_CANCELLED',
        message: `Node "${node.name}" was cancelled.`,
        cause: signal.reason,
      });
    }
    if (!outcome.stored) await this.emit(this.outcomeEvent(exec, outcome, false));
    if (outcome.kind === 'interrupt') {
      throw new NodeInterruptedError({ nodeName: node.name, requestIds: outcome.requestIds });
    }
    if (outcome.error) {
      throw new NodeFailedError({
        nodeName: node.name,
        attempts: outcome.attempts,
        causeCode: outcome.error.causeCode ?? outcome.error.code,
        message: outcome.error.message,
        failure: outcome.error,
      });
    }
    return outcome.output;
  }
}

/** The outgoing edges of a node, sorted by when they are taken. */
interface EdgePlan {
  always: readonly GraphEdge[];
  routed: readonly GraphEdge[];
  onDefault: readonly GraphEdge[];
  onError: readonly GraphEdge[];
  terminal: boolean;
}

const plans = new WeakMap<WorkflowGraph, Map<string, EdgePlan>>();

/** The edge plan of `node` in `graph`, computed once per graph. */
function edgePlan(graph: WorkflowGraph, node: string): EdgePlan {
  let byNode = plans.get(graph);
  if (!byNode) {
    byNode = new Map();
    plans.set(graph, byNode);
  }
  let plan = byNode.get(node);
  if (!plan) {
    const edges = graph.outgoing.get(node) ?? [];
    plan = {
      always: edges.filter((edge) => edge.routes === undefined),
      routed: edges.filter(
        (edge) => edge.routes !== undefined && !edge.routes.every((r) => r === ERROR_ROUTE),
      ),
      onDefault: edges.filter((edge) => edge.routes?.includes(DEFAULT_ROUTE) ?? false),
      onError: edges.filter((edge) => edge.routes?.includes(ERROR_ROUTE) ?? false),
      terminal: edges.length === 0,
    };
    byNode.set(node, plan);
  }
  return plan;
}

/** Index of the latest user message of `ctx`'s invocation in its session, or -1. */
function userMessageIndex(ctx: InvocationContext): number {
  const events = ctx.session.events;
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    if (event.author === 'user' && event.invocationId === ctx.invocationId && !event.branch)
      return index;
  }
  return -1;
}
