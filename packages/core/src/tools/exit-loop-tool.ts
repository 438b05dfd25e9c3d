import type { ToolContext } from '../context';
import type { FunctionDeclaration } from '../models';
import type { Tool } from './tool';

/**
 * The `exit_loop` tool: a model calls it to end the enclosing {@link LoopAgent}. It sets
 * `escalate` (the loop stops after the current sub-agent) and `skipSummarization` (the agent does
 * not call its model again), and returns `{}`.
 *
 * @example
 * ```ts
 * const critic = new LlmAgent({ name: 'critic', model, tools: [exitLoopTool],
 *   instruction: 'Review the draft. Call exit_loop when nothing is left to improve.' });
 * ```
 */
export class ExitLoopTool implements Tool {
  readonly name = 'exit_loop';
  readonly description =
    'Exits the loop. Call this function only when you are told to, or when the task is complete.';

  declaration(): FunctionDeclaration {
    return {
      name: this.name,
      description: this.description,
      parameters: { type: 'object', properties: {} },
    };
  }

  async run(_args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    context.actions.escalate = true;
    context.actions.skipSummarization = true;
    return {};
  }
}

/** A shared {@link ExitLoopTool} instance. */
export const exitLoopTool: Tool = new ExitLoopTool();
