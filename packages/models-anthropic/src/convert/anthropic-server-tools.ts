import type { ProviderToolSpec, ProviderToolType } from '@adk/core';
import { InvalidArgumentError } from '@adk/core';

/** The `anthropic-beta` value code execution needs. */
export const CODE_EXECUTION_BETA = 'code-execution-2025-05-22';

/** The provider-side tools the Messages API runs itself (server tools). */
export const ANTHROPIC_PROVIDER_TOOLS: readonly ProviderToolType[] = ['webSearch', 'codeExecution'];

/** A server tool of the request's `tools`. */
export type AnthropicServerTool = { type: string; name: string; [key: string]: unknown };

/**
 * The server tools of a request: `webSearch` as `web_search_20250305` (named `web_search`),
 * `codeExecution` as `code_execution_20250522` (named `code_execution`, which needs the
 * {@link CODE_EXECUTION_BETA} header: `betas` lists it). Each tool's `options` are merged in
 * (`max_uses`, `allowed_domains`, `user_location`...).
 *
 * @throws InvalidArgumentError for `urlContext`, which the Messages API has no server tool for.
 */
export function toAnthropicServerTools(specs: readonly ProviderToolSpec[] | undefined): {
  tools: AnthropicServerTool[];
  betas: string[];
} {
  const tools: AnthropicServerTool[] = [];
  const betas: string[] = [];
  for (const spec of specs ?? []) {
    switch (spec.type) {
      case 'webSearch':
        tools.push({ type: 'web_search_20250305', name: 'web_search', ...spec.options });
        break;
      case 'codeExecution':
        tools.push({ type: 'code_execution_20250522', name: 'code_execution', ...spec.options });
        if (!betas.includes(CODE_EXECUTION_BETA)) betas.push(CODE_EXECUTION_BETA);
        break;
      case 'urlContext':
        throw new InvalidArgumentError({
          message: 'Anthropic models have no URL context server tool; remove urlContextTool().',
          argument: 'config.providerTools',
        });
    }
  }
  return { tools, betas };
}
