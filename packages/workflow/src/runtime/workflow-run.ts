import {
  readStoredWorkflowRun,
  type Event,
  type InvocationContext,
  type StoredNodeError,
  type StoredWorkflowRun,
} from '@adk/core';
import type { z } from 'zod';

import { START } from '../graph/constants';
import type { WorkflowGraph } from '../graph/workflow-graph';
import type { NestedRunResult } from '../nodes/agent-node';
import type { BaseNode } from '../nodes/base-node';
import { refusalEvents, refuseInvalidAnswers, type RefusedAnswer } from './answer-validation';
import { runDynamicNode, type DynamicNodeHost } from './dynamic-node';
import { edgePlan, takenEdges } from './edge-plan';
import { EventPipe } from './event-pipe';
import { executeNode, type ExecutionSettings } from './execute-node';
import { NodeQueue } from './node-queue';
import type { NodeContextImpl } from './node-context-impl';
import type { Execution, Outcome } from './outcome';
import { outcomeEvent, type RunIdentity } from './outcome-event';
import { recordEvent, repliesOf } from './record-events';
import { endRun } from './run-end';
import { firstRunIdOf, storedOutcome, userMessageIndex } from './stored-outcome';

/** @internal What a run reads from its workflow. */
export interface RunnableWorkflow {
  readonly name: string;
  readonly graph: WorkflowGraph;
  readonly outputSchema: z.ZodType | undefined;
  readonly maxConcurrency: number;
  readonly stateSchema: z.ZodType | undefined;
}

/** The abort reason given to nodes still running when the run is over (failed, or stopped). */
const RUN_OVER = Object.freeze({ name: 'WorkflowRunOver', message: 'The workflow run is over.' });

type PipeItem =
  | { type: 'event'; event: Event; ack: () => void }
  | { type: 'settled'; exec: Execution; outcome: Outcome };

/**
 * @internal One run of a workflow in one invocation: a fresh run, or the continuation of the
 * unfinished run stored in the session (finished executions are read back, not run again).
 */
export class WorkflowRun implements DynamicNodeHost, RunIdentity {
  private readonly pipe = new EventPipe<PipeItem>();
  private readonly queue: NodeQueue;
  private readonly controller = new AbortController();
  private readonly signal: AbortSignal;
  readonly stored: StoredWorkflowRun | undefined;
  readonly replies: Map<string, unknown>;
  private readonly replayOrder = new Map<string, number>();
  readonly runId: string;
  readonly firstRunId: number;
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
  readonly messageIndex: number;
  /** The latest output of each terminal node that produced one (Python's terminal outputs). */
  private readonly terminalOutputs = new Map<string, { node: BaseNode; output: unknown }>();
  private failure: StoredNodeError | undefined;
  private readonly baseSettings: ExecutionSettings;
  private readonly refused: RefusedAnswer[];

  constructor(
    private readonly workflow: RunnableWorkflow,
    readonly ctx: InvocationContext,
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
    this.firstRunId = this.stored ? firstRunIdOf(this.stored) : 1;
    this.queue = new NodeQueue(workflow.graph, this.firstRunId);
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

  get workflowName(): string {
    return this.workflow.name;
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
    for (const refusal of this.refused) yield* refusalEvents(ctx, workflow.name, refusal);
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

  /** The run's end (see {@link endRun}). */
  private finish(outermost: boolean): AsyncGenerator<Event, NestedRunResult> {
    return endRun({
      ctx: this.ctx,
      workflowName: this.workflow.name,
      runId: this.runId,
      outputSchema: this.workflow.outputSchema,
      failure: this.failure,
      waiting: this.waiting,
      awaitingMessage: this.awaitingMessage,
      terminalOutputs: this.terminalOutputs,
      outermost,
    });
  }

  private trigger(target: string, from: string, value: unknown, fromUser: boolean): void {
    this.queue.trigger(target, from, value, fromUser);
  }

  private dispatch(): void {
    if (this.failure || this.signal.aborted) return;
    const limit = this.workflow.maxConcurrency;
    for (const exec of this.queue.ready(() => limit <= 0 || this.inFlight < limit)) {
      this.start(exec);
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

  settings(resumed: boolean): ExecutionSettings {
    if (resumed) return { ...this.baseSettings, resumed, resumeInputs: this.replies };
    return this.baseSettings;
  }

  /** The event recording `outcome` (unless it was read back from the session). */
  private settleEvent(exec: Execution, outcome: Outcome): Event | undefined {
    this.queue.settled(exec.node.name);
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
    for (const edge of takenEdges(plan, outcome.routes)) {
      this.trigger(edge.to, name, outcome.output, false);
    }
  }

  /** The event recording `outcome` (see {@link outcomeEvent}). */
  outcomeEvent(exec: Execution, outcome: Outcome, handled = false): Event {
    return outcomeEvent(this, exec, outcome, handled);
  }

  /** Emit an event of a node; resolves once the Runner stored it. */
  emit(event: Event): Promise<void> {
    if (this.over) return Promise.resolve();
    return new Promise((ack) => this.pipe.push({ type: 'event', event, ack }));
  }

  /** Run a dynamic node for `parent`; its outcome is stored like a graph node's. */
  runNode(
    parent: NodeContextImpl,
    value: unknown,
    input: unknown,
    key: string | undefined,
    cancel: AbortSignal | undefined,
  ): Promise<unknown> {
    return runDynamicNode(this, parent, value, input, key, cancel);
  }
}
