import {
  DELEGATION_TOOL,
  FunctionTool,
  LlmAgent,
  type Event,
  type InvocationContext,
  type LlmAgentOptions,
  type ReadonlyContext,
  type Tool,
} from '@adk/core';
import type { z } from 'zod';

import {
  delegationAnswer,
  delegationTool,
  FINISH_TASK_TOOL_NAME,
  finishedTask,
  pendingDelegation,
} from './task-delegation';

export { FINISH_TASK_TOOL_NAME };

/** How a {@link TaskAgent} works a task. */
export type TaskMode = 'task' | 'single_turn';

/** Options of {@link TaskAgent}. */
export interface TaskAgentOptions extends Omit<LlmAgentOptions, 'outputSchema'> {
  /**
   * `'task'`: multi-turn; the agent may talk with the user over several messages, and the task
   * ends when it calls `finish_task` with a result valid for `resultSchema`. `'single_turn'`:
   * one answer, the result itself, as JSON valid for `resultSchema` (controlled output; only the
   * current input is shown to the model).
   */
  mode: TaskMode;
  /** The shape of the result. */
  resultSchema: z.ZodType;
  /**
   * The arguments of the function named after the agent that a parent `LlmAgent` calls to
   * delegate a task (default: `{ request: string }`).
   */
  inputSchema?: z.ZodType;
}

const TASK_INSTRUCTION = `You are working on a task. Ask the user when you need information you do not have. When the task is done, call ${FINISH_TASK_TOOL_NAME} with the result; do not answer with the result as text.`;

/**
 * An agent that takes a task and hands back a structured result (ADK 2.0's task delegation).
 * In a workflow it is a node whose output is the result: in `task` mode the node waits for the
 * user's messages between the agent's turns (the run pauses, any process resumes it) until the
 * agent calls `finish_task` with valid arguments (invalid ones are refused back to the model,
 * which may correct them); in `single_turn` mode the answer is the result. Under an `LlmAgent`
 * it is an ordinary sub-agent: the parent transfers the task to it, and `finish_task` stores the
 * result under `outputKey` (when set) and transfers back to the parent.
 *
 * @example
 * ```ts
 * const intake = new TaskAgent({
 *   name: 'intake', model, mode: 'task',
 *   instruction: 'Collect the customer name and order number.',
 *   resultSchema: z.object({ name: z.string(), order: z.string() }),
 * });
 * new Workflow({ name: 'support', edges: [[START, intake, fileTicket]] });
 * ```
 */
export class TaskAgent extends LlmAgent {
  readonly mode: TaskMode;
  readonly resultSchema: z.ZodType;

  constructor(options: TaskAgentOptions) {
    const { mode, resultSchema, inputSchema, ...rest } = options;
    const holder: { agent?: TaskAgent } = {};
    const userInstruction = rest.instruction;
    const instruction =
      mode === 'single_turn'
        ? userInstruction
        : typeof userInstruction === 'function'
          ? async (ctx: ReadonlyContext) => `${await userInstruction(ctx)}\n\n${TASK_INSTRUCTION}`
          : `${userInstruction ?? ''}\n\n${TASK_INSTRUCTION}`.trim();
    super({
      ...rest,
      ...(instruction === undefined ? {} : { instruction }),
      ...(mode === 'single_turn'
        ? { outputSchema: resultSchema, includeContents: rest.includeContents ?? 'none' }
        : { tools: [...(rest.tools ?? []), finishTaskTool(resultSchema, holder)] }),
    });
    this.mode = mode;
    this.resultSchema = resultSchema;
    this.inputSchema = inputSchema;
    holder.agent = this;
  }

  readonly inputSchema: z.ZodType | undefined;
  private delegation: Tool | undefined;

  /**
   * The function named after this agent that a parent `LlmAgent` is offered (core's
   * `DELEGATION_TOOL`), in `task` mode: calling it hands the task (the call's arguments) to this
   * agent.
   */
  [DELEGATION_TOOL](): Tool | undefined {
    if (this.mode !== 'task') return undefined;
    return (this.delegation ??= delegationTool(this, this.inputSchema));
  }

  /**
   * The agent's turn; once `finish_task` succeeded under an `LlmAgent` parent, the result answers
   * the parent's delegation call (when it delegated by calling this agent's function, as in
   * Python) and the parent goes on (the task was handed to it by a call or by
   * `transfer_to_agent`).
   */
  protected override async *runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    let task: { result: unknown } | undefined;
    for await (const event of super.runImpl(ctx)) {
      task ??= event.author === this.name ? finishedTask(event) : undefined;
      yield event;
    }
    const parent = this.parentAgent;
    if (!task || this.mode !== 'task' || !(parent instanceof LlmAgent)) return;
    const call = pendingDelegation(ctx.session.events, parent.name, this.name);
    if (call) yield delegationAnswer(ctx, call, this.name, task.result);
    yield* parent.run(ctx.createChild({ agent: parent }));
  }
}

function finishTaskTool(schema: z.ZodType, holder: { agent?: TaskAgent }): FunctionTool<unknown> {
  return new FunctionTool<unknown>({
    name: FINISH_TASK_TOOL_NAME,
    description: 'Hand back the result of the task once it is complete.',
    parameters: schema,
    execute: (result, context) => {
      const self = holder.agent;
      if (self?.outputKey) context.state.set(self.outputKey, result);
      // The turn ends here; under an LlmAgent, the agent's run hands back to it (`runImpl`).
      context.actions.skipSummarization = true;
      return { result };
    },
  });
}
