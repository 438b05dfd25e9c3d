import type { InstructionProvider, ReadonlyContext } from '@adk/core';

import type { McpConnection } from '../client/mcp-connection';
import type { McpToolset } from '../client/mcp-toolset';

/** Arguments of the prompt: fixed, or computed from the run's context (state, user...). */
export type McpPromptArguments =
  | Record<string, string>
  | ((context: ReadonlyContext) => Record<string, string> | Promise<Record<string, string>>);

/**
 * An instruction provider that reads an MCP server's prompt (`prompts/get`) before each model
 * call, so the server owns the agent's instruction. The text of every message of the prompt is
 * joined by blank lines; embedded text resources are included, other content is left out.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({
 *   name: 'support',
 *   model,
 *   instruction: mcpPromptInstruction(kb, 'support-persona', (ctx) => ({ tier: String(ctx.state.get('tier')) })),
 *   tools: [kb],
 * });
 * ```
 * @throws McpRequestError (or another typed MCP error) when the prompt cannot be read; core
 * reports it as the agent's error event.
 */
export function mcpPromptInstruction(
  source: McpToolset | McpConnection,
  promptName: string,
  args: McpPromptArguments = {},
): InstructionProvider {
  const connection = 'connection' in source ? source.connection : source;
  return async (context) => {
    const values = typeof args === 'function' ? await args(context) : args;
    const prompt = await connection.request(
      (client, options) => client.getPrompt({ name: promptName, arguments: values }, options),
      { operation: `prompts/get "${promptName}"`, signal: context.signal, context },
    );
    const texts: string[] = [];
    for (const message of prompt.messages) {
      const content = message.content;
      if (content.type === 'text') texts.push(content.text);
      else if (content.type === 'resource' && 'text' in content.resource) {
        texts.push(content.resource.text);
      }
    }
    return texts.join('\n\n');
  };
}
