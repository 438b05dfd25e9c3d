import {
  getText,
  hasFunctionCalls,
  LlmAgent,
  type BaseAgent,
  type Event,
  type InvocationContext,
  type StoredNodeError,
} from '@adk/core';

import { NodeFailedError } from '../errors/node-failed-error';
import { TaskAgent } from '../task/task-agent';
import { finishedTask } from '../task/task-delegation';
import { agentSessionView, type AgentNodeContents } from './agent-input-view';
import { BaseNode, type BaseNodeOptions } from './base-node';
import type { NodeContext } from './node-context';

/** How a nested workflow run ended, as seen by the node running it. */
export interface NestedRunResult {
  status: 'completed' | 'paused' | 'failed';
  output?: unknown;
  /** Calls the nested run waits on (`paused`). */
  requestIds?: string[];
  /** The nested run waits for the user's next message (`paused`). */
  awaitsMessage?: boolean;
  /** Why it failed (`failed`). */
  errorCode?: string;
  errorMessage?: string;
  /** The node failure that failed it (`failed`), passed on as the running node's failure. */
  failure?: StoredNodeError;
}

/** An agent that runs as a node with a value input (a nested `Workflow`). */
export interface NestableAgent {
  runNested(ctx: InvocationContext, input: unknown): AsyncGenerator<Event, NestedRunResult>;
}

function isNestable(agent: BaseAgent): agent is BaseAgent & NestableAgent {
  return typeof (agent as Partial<NestableAgent>).runNested === 'function';
}

/** Options of {@link AgentNode}. */
export interface AgentNodeOptions extends Partial<BaseNodeOptions> {
  /**
   * What the agent sees (Python's `include_contents` of an agent node): `'none'`, its input only,
   * as Python's single-turn agent node; `'default'`, the conversation, then its input. Default:
   * `'none'` for an `LlmAgent` (a `TaskAgent` in `task` mode, which talks with the user, and
   * other agents: `'default'`).
   */
  includeContents?: AgentNodeContents;
}

/**
 * An agent used as a node. The input is shown to the agent as a user message on the node's
 * branch (it is not stored: the session holds the user's own messages only), the agent runs, and
 * its final answer is the output: the text, or the parsed value for an `LlmAgent` with an
 * `outputSchema`. By default an `LlmAgent` sees its input only (see
 * {@link AgentNodeOptions.includeContents}). A nested
 * `Workflow` receives the input value itself and outputs its own output. An agent whose turn ends
 * on long-running calls (a confirmation, human input) pauses the node until they are answered;
 * the node then runs again (`rerunOnResume`), and the agent resumes its calls. An error event
 * ends the attempt with a `NodeFailedError` (retried when the node has a retry policy).
 */
export class AgentNode extends BaseNode<unknown, unknown> {
  readonly agent: BaseAgent;
  readonly includeContents: AgentNodeContents;

  constructor(agent: BaseAgent, options: AgentNodeOptions = {}) {
    super({
      rerunOnResume: true,
      ...options,
      name: agent.name,
      description: options.description ?? agent.description,
      outputSchema:
        options.outputSchema ?? (agent instanceof LlmAgent ? agent.outputSchema : undefined),
    });
    this.agent = agent;
    this.includeContents =
      options.includeContents ??
      (agent instanceof LlmAgent && !(agent instanceof TaskAgent && agent.mode === 'task')
        ? 'none'
        : 'default');
  }

  override get agents(): readonly BaseAgent[] {
    return [this.agent];
  }

  async run(input: unknown, ctx: NodeContext): Promise<unknown> {
    if (isNestable(this.agent)) {
      const nested = ctx.invocation.createChild({
        agent: this.agent,
        branch: ctx.branch,
        signal: ctx.signal,
      });
      return this.runNestedWorkflow(this.agent, nested, input, ctx);
    }
    // The agent runs under the node's signal (a timeout or a failing sibling cancels it), and
    // sees the session through a view that shows its input.
    const invocation = ctx.invocation.createChild({
      agent: this.agent,
      branch: ctx.branch,
      signal: ctx.signal,
      session: agentSessionView(ctx, input, this.includeContents),
    });
    let final: Event | undefined;
    const waiting: string[] = [];
    let task: { result: unknown } | undefined;
    for await (const event of this.agent.run(invocation)) {
      // Timed out (or the run is over): stop the agent at its next event.
      if (ctx.signal.aborted) break;
      await ctx.emit(event);
      if (event.partial) continue;
      task ??= finishedTask(event);
      if (event.errorCode) {
        throw new NodeFailedError({
          nodeName: this.name,
          attempts: ctx.attempt,
          causeCode: event.errorCode,
          message: `Agent "${event.author}" ended with ${event.errorCode}: ${event.errorMessage ?? ''}`,
        });
      }
      if (event.longRunningToolIds?.length) waiting.push(...event.longRunningToolIds);
      if (event.author === this.agent.name && event.content && !hasFunctionCalls(event)) {
        final = event;
      }
    }
    if (waiting.length > 0) {
      ctx.waitFor(waiting);
      return undefined;
    }
    if (this.agent instanceof TaskAgent && this.agent.mode === 'task') {
      if (task) return task.result;
      // The agent answered the user (a question): the task goes on with their next message.
      ctx.waitForMessage();
      return undefined;
    }
    return this.outputOf(final);
  }

  private outputOf(final: Event | undefined): unknown {
    const agent = this.agent;
    if (agent instanceof LlmAgent && agent.outputKey && final) {
      const stored = final.actions.stateDelta[agent.outputKey];
      if (stored !== undefined && agent.outputSchema) return stored;
    }
    const text = final ? getText(final.content) : '';
    if (agent instanceof LlmAgent && agent.outputSchema) {
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new NodeFailedError({
          nodeName: this.name,
          attempts: 1,
          causeCode: 'OUTPUT_VALIDATION_FAILED',
          message: `Agent "${agent.name}" answered text that is not JSON for its output schema.`,
          cause: error,
        });
      }
    }
    return text;
  }

  private async runNestedWorkflow(
    agent: BaseAgent & NestableAgent,
    invocation: InvocationContext,
    input: unknown,
    ctx: NodeContext,
  ): Promise<unknown> {
    const run = agent.runNested(invocation, input);
    for (;;) {
      if (ctx.signal.aborted) {
        await run.return({ status: 'failed', errorCode: 'WORKFLOW_ABORTED' });
        return undefined;
      }
      const step = await run.next();
      if (step.done) {
        const result = step.value;
        if (result.status === 'paused') {
          ctx.waitFor(result.requestIds ?? []);
          if (result.awaitsMessage) ctx.waitForMessage();
          return undefined;
        }
        if (result.status === 'failed') {
          throw new NodeFailedError({
            nodeName: this.name,
            attempts: ctx.attempt,
            causeCode: result.errorCode ?? 'WORKFLOW_NODE_FAILED',
            message: result.errorMessage ?? `Workflow "${agent.name}" failed.`,
            ...(result.failure ? { failure: result.failure } : {}),
          });
        }
        return result.output;
      }
      await ctx.emit(step.value);
    }
  }
}
