import {
  InvalidArgumentError,
  type FunctionDeclaration,
  type Tool,
  type ToolContext,
} from '@adk/core';

import { memoryText, memoryTime } from './memory-access';

/** Name of the tool as the model sees it. */
export const LOAD_MEMORY_TOOL_NAME = 'load_memory';

/** One memory as the model receives it. */
export interface LoadedMemory {
  author?: string;
  time?: string;
  text: string;
}

/**
 * The `load_memory` tool: the model searches the user's long-term memory (past sessions) with a
 * query of its choice. Needs a `memoryService` on the runner.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({ name: 'assistant', model, tools: [loadMemoryTool] });
 * const runner = new Runner({ appName: 'app', agent, memoryService: new InMemoryMemoryService() });
 * ```
 */
export class LoadMemoryTool implements Tool {
  readonly name = LOAD_MEMORY_TOOL_NAME;
  readonly description =
    "Searches the user's memory of past conversations. Call it when the answer may depend on something said in an earlier conversation.";

  declaration(): FunctionDeclaration {
    return {
      name: this.name,
      description: this.description,
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Words to look for in past conversations.' },
        },
        required: ['query'],
      },
    };
  }

  async run(
    args: Record<string, unknown>,
    context: ToolContext,
  ): Promise<{ memories: LoadedMemory[] }> {
    const query = args.query;
    if (typeof query !== 'string') {
      throw new InvalidArgumentError({ message: 'query must be a string.', argument: 'query' });
    }
    const { memories } = await context.searchMemory(query);
    return {
      memories: memories.map((entry) => {
        const time = memoryTime(entry);
        return {
          ...(entry.author !== undefined ? { author: entry.author } : {}),
          ...(time !== undefined ? { time } : {}),
          text: memoryText(entry),
        };
      }),
    };
  }
}

/** A ready-made {@link LoadMemoryTool}. */
export const loadMemoryTool: LoadMemoryTool = new LoadMemoryTool();
