import {
  getText,
  InvalidArgumentError,
  type FunctionDeclaration,
  type LlmRequest,
  type ReadonlyContext,
  type Tool,
} from '@adk/core';

import { hasMemoryAccess, memoryText, memoryTime } from './memory-access';

/** Name of the tool (never shown to the model: it has no declaration). */
export const PRELOAD_MEMORY_TOOL_NAME = 'preload_memory';

/**
 * The `preload_memory` tool: before every model call it searches the user's memory with the
 * user's current message and appends the relevant memories to the system instruction, so the
 * model sees them without asking. The model cannot call it. Needs a `memoryService` on the runner.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({ name: 'assistant', model, tools: [preloadMemoryTool] });
 * ```
 */
export class PreloadMemoryTool implements Tool {
  readonly name = PRELOAD_MEMORY_TOOL_NAME;
  readonly description = 'Adds memories relevant to the user message to the system instruction.';

  declaration(): FunctionDeclaration | undefined {
    return undefined;
  }

  async run(): Promise<never> {
    throw new InvalidArgumentError({
      message: 'preload_memory is not callable: it only adds memories to the request.',
      argument: 'name',
    });
  }

  async processRequest(context: ReadonlyContext, request: LlmRequest): Promise<void> {
    if (!hasMemoryAccess(context)) return;
    const query = getText(context.userContent).trim();
    if (query === '') return;
    const { memories } = await context.searchMemory(query);
    const lines = memories
      .map((entry) => {
        const text = memoryText(entry);
        if (text === '') return undefined;
        const time = memoryTime(entry);
        return `${time ? `[${time}] ` : ''}${entry.author ?? 'unknown'}: ${text}`;
      })
      .filter((line): line is string => line !== undefined);
    if (lines.length === 0) return;
    const block = [
      'Excerpts from past conversations with the user; use them when they help answer the current message:',
      '<PAST_CONVERSATIONS>',
      ...lines,
      '</PAST_CONVERSATIONS>',
    ].join('\n');
    request.systemInstruction = request.systemInstruction
      ? `${request.systemInstruction}\n\n${block}`
      : block;
  }
}

/** A ready-made {@link PreloadMemoryTool}. */
export const preloadMemoryTool: PreloadMemoryTool = new PreloadMemoryTool();
