import type { LlmAgent } from '../agents/llm-agent';
import type { Content } from '../content';
import { InvocationReadonlyContext } from '../context/invocation-contexts';
import type { RunConfig } from '../context/run-config';
import { LiveNotSupportedError } from '../errors/live-not-supported-error';
import { buildRequestNow } from '../flow/request-processors/default-processors';
import { resolveTools, type ResolvedTools } from '../flow/resolve-tools';
import { withTransferTool } from '../flow/transfer-to-agent-flow';
import { CONTINUE_TURN_TEXT, EMPTY_HISTORY_TEXT } from '../history/turn-order';
import type { InvocationContext } from '../invocation/invocation-context';
import type { LiveConnection } from '../models';
import { liveConnectConfigOf } from './live-connect-config';

/** What {@link openLiveConnection} needs: the agent, its context, the settings, a handle. */
export interface OpenLiveConnectionOptions {
  agent: LlmAgent;
  agentCtx: InvocationContext;
  runConfig: RunConfig;
  /** Resume the provider's session with this handle (then no history is sent). */
  handle: string | undefined;
}

/**
 * Connect `agent`'s model live: its tools resolved (with the transfer tool), its request built by
 * its request processors as for a turn, plus `liveConnectConfig`; then the conversation so far
 * sent with `sendHistory`, unless the connection resumes a provider session (`handle`).
 *
 * @throws LiveNotSupportedError when the model has no `connectLive`.
 */
export async function openLiveConnection(
  options: OpenLiveConnectionOptions,
): Promise<{ connection: LiveConnection; tools: ResolvedTools }> {
  const { agent, agentCtx, handle } = options;
  const context = new InvocationReadonlyContext(agentCtx);
  const resolving = resolveTools(agent, context);
  const tools = withTransferTool(agent, resolving instanceof Promise ? await resolving : resolving);
  const model = agent.resolveModel(agentCtx.models);
  if (!model.connectLive) {
    throw new LiveNotSupportedError({ agentName: agent.name, model: model.name });
  }
  const request = await buildRequestNow(model.name, agent.requestProcessors, {
    agent,
    invocationContext: agentCtx,
    context,
    tools: tools.tools,
  });
  request.liveConnectConfig = liveConnectConfigOf(options.runConfig, handle);
  const connection = await model.connectLive(request, { signal: agentCtx.signal });
  // A resumed provider session already holds the conversation; a new one gets the history.
  const history = liveHistory(request.contents);
  if (handle === undefined && history.length > 0) {
    try {
      await connection.sendHistory(history);
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
  }
  return { connection, tools };
}

/**
 * The request's contents without the user turns the history builder adds for turn-based
 * providers (an empty history's placeholder, the closing "continue" turn): on a live
 * connection they would read as something the user said.
 */
function liveHistory(contents: readonly Content[]): Content[] {
  const history = [...contents];
  const last = history.at(-1);
  const text = last?.role === 'user' && last.parts.length === 1 ? last.parts[0]?.text : undefined;
  if (text === EMPTY_HISTORY_TEXT || text === CONTINUE_TURN_TEXT) history.pop();
  return history;
}
