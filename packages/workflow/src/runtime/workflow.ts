import {
  BaseAgent,
  createEvent,
  getText,
  RESUMES_SUB_AGENTS,
  workflowRecordOf,
  type BaseAgentOptions,
  type Content,
  type Event,
  type InvocationContext,
} from '@adk/core';
import type { z } from 'zod';

import { buildWorkflowGraph } from '../graph/build-graph';
import type { EdgeItem } from '../graph/edge';
import type { WorkflowGraph } from '../graph/workflow-graph';
import type { NestableAgent, NestedRunResult } from '../nodes/agent-node';
import { describeWorkflowGraph, type WorkflowGraphDescription } from './describe-graph';
import { WorkflowGraphError } from '../errors/workflow-graph-error';
import { isContent } from '../nodes/content-input';
import { FunctionNode } from '../nodes/function-node';
import { undeclaredStateKeys } from './state-schema';
import { WorkflowRun } from './workflow-run';

/** Options of {@link Workflow}. */
export interface WorkflowOptions extends Omit<BaseAgentOptions, 'subAgents'> {
  /**
   * The graph: chains from `START` (or `'START'`), fan-outs, route maps, explicit edges (see
   * {@link EdgeItem}). Empty or left out, the workflow runs nothing and outputs nothing (as
   * Python's `Workflow` without edges).
   */
  edges?: readonly EdgeItem[];
  /**
   * The input: without it, the user's message as a `Content` (as in Python); with it, the
   * message's text (JSON when the schema is not a string). Or the value a parent workflow passes. Checked against the nodes after `START` at construction.
   */
  inputSchema?: z.ZodType;
  /**
   * Checks the workflow's output: the output of the one terminal node (no outgoing edge) that
   * produced one, as in Python; several terminal outputs fail the run.
   */
  outputSchema?: z.ZodType;
  /** Most graph nodes running at once (dynamic nodes excluded); 0 (default) for no limit. */
  maxConcurrency?: number;
  /**
   * The session state the workflow's nodes may write, as a zod object (Python ADK's
   * `state_schema`): a node writing an undeclared key, or a value its field refuses, fails with
   * a `NodeDataError`; a function node reading (`stateKeys`) an undeclared key is refused at
   * construction (`undeclared-state-key`).
   */
  stateSchema?: z.ZodType;
}

/**
 * A graph workflow, as an agent: nodes (functions, agents, tools, custom nodes) joined by edges
 * from `START`, with routes, fan-out and joins, loops through routed edges, retries and
 * timeouts, human input, and resumption from the session's events. It runs under the Runner like
 * any agent; its progress is stored in its events (`customMetadata.adk_workflow`), so an
 * interrupted or paused run continues in any process without running finished nodes again.
 *
 * @throws WorkflowGraphError at construction when the graph is malformed.
 *
 * @example
 * ```ts
 * const classify = (text: string, ctx: NodeContext) => { ctx.route = text.includes('refund') ? 'billing' : 'other'; return text; };
 * const workflow = new Workflow({
 *   name: 'support',
 *   edges: [[START, classify, { billing: billingAgent, other: generalAgent }]],
 * });
 * const runner = new Runner({ appName: 'support', agent: workflow, sessionService });
 * ```
 */
export class Workflow extends BaseAgent implements NestableAgent {
  readonly [RESUMES_SUB_AGENTS] = true;
  readonly graph: WorkflowGraph;
  readonly inputSchema: z.ZodType | undefined;
  readonly outputSchema: z.ZodType | undefined;
  readonly maxConcurrency: number;
  readonly stateSchema: z.ZodType | undefined;

  constructor(options: WorkflowOptions) {
    const graph = buildWorkflowGraph({
      workflowName: options.name,
      edges: options.edges ?? [],
      inputSchema: options.inputSchema,
    });
    super({ ...options, subAgents: graph.agents });
    this.graph = graph;
    this.inputSchema = options.inputSchema;
    this.outputSchema = options.outputSchema;
    this.maxConcurrency = Math.max(0, options.maxConcurrency ?? 0);
    this.stateSchema = options.stateSchema;
    if (options.stateSchema) {
      const readers = [...graph.nodes.values()].flatMap((node) =>
        node instanceof FunctionNode ? [{ name: node.name, stateKeys: node.stateKeys }] : [],
      );
      const undeclared = undeclaredStateKeys(options.stateSchema, readers);
      if (undeclared.length > 0) {
        throw new WorkflowGraphError({
          workflowName: options.name,
          problem: 'undeclared-state-key',
          nodes: undeclared.map((entry) => entry.split('.')[0] as string),
          message: `function nodes read state keys its stateSchema does not declare: ${undeclared.join(', ')}.`,
        });
      }
    }
  }

  /** The graph as plain data (nodes with their kind, edges with their routes), for drawing. */
  describeGraph(): WorkflowGraphDescription {
    return describeWorkflowGraph(this.graph);
  }

  protected async *runImpl(context: InvocationContext): AsyncGenerator<Event, void> {
    const ctx = onOwnBranch(this, context);
    if (ctx.resumeFrom?.parentAgent === this) ctx.resumeFrom = undefined;
    const run = new WorkflowRun(this, ctx);
    let value: unknown;
    if (!run.continuing) {
      // An answer to a call of a run that is over (answered twice, or late) starts nothing.
      const parts = ctx.userContent?.parts ?? [];
      if (parts.length > 0 && parts.every((part) => part.functionResponse !== undefined)) return;
      const parsed = this.parseInput(ctx.userContent);
      if (!parsed.ok) {
        yield createEvent({
          invocationId: ctx.invocationId,
          author: this.name,
          branch: ctx.branch,
          errorCode: 'WORKFLOW_NODE_INPUT_INVALID',
          errorMessage: parsed.message,
        });
        return;
      }
      value = parsed.value;
    }
    yield* run.execute({ value, fromUser: true }, true);
  }

  /** Run as a node of another workflow, with `input` as the input value. */
  async *runNested(ctx: InvocationContext, input: unknown): AsyncGenerator<Event, NestedRunResult> {
    // The agent span of a nested run, so its node spans have a parent (callbacks do not run: the
    // parent workflow's node is the unit).
    const startTime = this.startRunSpan(ctx);
    try {
      return yield* this.runNestedBody(ctx, input);
    } finally {
      this.endRunSpan(ctx, startTime);
    }
  }

  private async *runNestedBody(
    ctx: InvocationContext,
    input: unknown,
  ): AsyncGenerator<Event, NestedRunResult> {
    if (ctx.resumeFrom?.parentAgent === this) ctx.resumeFrom = undefined;
    const run = new WorkflowRun(this, ctx);
    let value = input;
    if (!run.continuing && this.inputSchema && isContent(input)) {
      // The user's message passed down: read as the outermost workflow reads it.
      const parsed = this.parseInput(input);
      if (!parsed.ok) {
        return {
          status: 'failed',
          errorCode: 'WORKFLOW_NODE_INPUT_INVALID',
          errorMessage: parsed.message,
        };
      }
      value = parsed.value;
    } else if (!run.continuing && this.inputSchema) {
      const parsed = this.inputSchema.safeParse(input);
      if (!parsed.success) {
        return {
          status: 'failed',
          errorCode: 'WORKFLOW_NODE_INPUT_INVALID',
          errorMessage: `Input of workflow "${this.name}" does not match its inputSchema: ${parsed.error.message}`,
        };
      }
      value = parsed.data;
    }
    return yield* run.execute({ value, fromUser: false }, false);
  }

  /**
   * The run's input: the user's message as a `Content`, as in Python (each node takes it as it
   * takes any input: function and tool nodes its text), or, with an `inputSchema`, the value
   * the schema reads from its text (the text itself, or the text as JSON).
   */
  private parseInput(
    content: Content | undefined,
  ): { ok: true; value: unknown } | { ok: false; message: string } {
    const schema = this.inputSchema;
    if (!schema) return { ok: true, value: content };
    const text = content ? getText(content) : undefined;
    const direct = schema.safeParse(text);
    if (direct.success) return { ok: true, value: direct.data };
    try {
      const parsed = schema.safeParse(JSON.parse(text ?? ''));
      if (parsed.success) return { ok: true, value: parsed.data };
      return {
        ok: false,
        message: `Input of workflow "${this.name}" does not match its inputSchema: ${parsed.error.message}`,
      };
    } catch {
      return {
        ok: false,
        message: `Input of workflow "${this.name}" is not JSON for its inputSchema: ${direct.error.message}`,
      };
    }
  }
}

/**
 * `ctx` on the workflow's own branch. The Runner starts a workflow that resumes a node's agent
 * with the agent's branch (a branch below the workflow's); the workflow's own branch is then the
 * branch of its latest record that is that branch or one of its ancestors.
 */
function onOwnBranch(workflow: Workflow, ctx: InvocationContext): InvocationContext {
  const branch = ctx.branch;
  if (ctx.resumeFrom === undefined || branch === undefined) return ctx;
  const events = ctx.session.events;
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    if (event.author !== workflow.name || workflowRecordOf(event) === undefined) continue;
    const own = event.branch;
    if (own === branch) return ctx;
    if (own === undefined) return withBranch(ctx, undefined);
    if (branch.startsWith(`${own}.`)) return withBranch(ctx, own);
  }
  return ctx;
}

/** `ctx` seen on `branch`: everything else (shared invocation state included) is `ctx`'s. */
function withBranch(ctx: InvocationContext, branch: string | undefined): InvocationContext {
  return Object.create(ctx, { branch: { value: branch, enumerable: true } }) as InvocationContext;
}
