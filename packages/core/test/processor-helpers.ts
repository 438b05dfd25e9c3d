/** Helpers for the request processors' unit tests. */
import type { InvocationContext } from '../src/invocation/invocation-context';
import { LlmAgent, type LlmAgentOptions } from '../src/agents/llm-agent';
import { InvocationReadonlyContext } from '../src/context/invocation-contexts';
import type { RequestProcessorInput } from '../src/flow/request-processors/types';
import type { LlmRequest } from '../src/models';
import type { RunConfig } from '../src/context/run-config';
import type { Tool } from '../src/tools/tool';
import { makeContext } from './helpers';

export const empty = (): LlmRequest => ({ model: 'm', contents: [], config: {} });

export async function input(
  options: LlmAgentOptions,
  extra: {
    runConfig?: Partial<RunConfig>;
    state?: Record<string, unknown>;
    tools?: Tool[];
    ctx?: InvocationContext;
  } = {},
): Promise<RequestProcessorInput> {
  const agent = new LlmAgent(options);
  const ctx =
    extra.ctx ?? (await makeContext(agent, { runConfig: extra.runConfig, state: extra.state }));
  return {
    agent,
    invocationContext: ctx,
    context: new InvocationReadonlyContext(ctx),
    tools: extra.tools ?? [],
  };
}

/** A processor must not change what it is given. */
export function frozen(request: LlmRequest): LlmRequest {
  return Object.freeze({
    ...request,
    config: Object.freeze({ ...request.config }),
    contents: Object.freeze([...request.contents]) as never,
  });
}
