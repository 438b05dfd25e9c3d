import type { AgentNode, InvocationContext } from '../invocation/invocation-context';
import { describeCause } from '../errors/describe-cause';
import { COMPACTION_RANGE_METADATA_KEY, createEvent, type Event } from '../events';
import type { ContextCompressor } from '../compression/context-compressor';

/** `errorCode` of the (non-fatal) event reporting that a compressor failed. */
export const CONTEXT_COMPRESSION_FAILED_CODE = 'CONTEXT_COMPRESSION_FAILED';

/**
 * Run before each model call of an agent that has a `contextCompressor`: ask it whether to
 * compact, and if so yield the compaction event (authored by the agent, no content,
 * `actions.compaction` set). The runner commits it before the request is built, so the request
 * already uses the summary, and later turns reuse the recorded decision.
 *
 * A failing compressor does not stop the agent: an event with `errorCode:
 * 'CONTEXT_COMPRESSION_FAILED'` reports it and the request is sent with the full history.
 */
export async function* compactContext(
  agent: AgentNode,
  ctx: InvocationContext,
): AsyncGenerator<Event, void> {
  const compressor = (agent as { contextCompressor?: ContextCompressor }).contextCompressor;
  if (!compressor || ctx.signal.aborted) return;
  try {
    const compaction = await compressor.compact({
      events: ctx.session.events,
      agentName: agent.name,
      branch: ctx.branch,
      signal: ctx.signal,
      resolveModel: (name) => ctx.models.resolve(name),
    });
    if (!compaction) return;
    // The range's event ids go to customMetadata: the stored compaction keeps the official
    // ADKs' shape, which the Python ADK validates strictly.
    const { startEventId, endEventId, ...stored } = compaction;
    yield createEvent({
      invocationId: ctx.invocationId,
      author: agent.name,
      branch: ctx.branch,
      actions: { compaction: stored },
      ...(startEventId !== undefined && endEventId !== undefined
        ? { customMetadata: { [COMPACTION_RANGE_METADATA_KEY]: { startEventId, endEventId } } }
        : {}),
    });
  } catch (error) {
    if (ctx.signal.aborted) return;
    yield createEvent({
      invocationId: ctx.invocationId,
      author: agent.name,
      branch: ctx.branch,
      errorCode: CONTEXT_COMPRESSION_FAILED_CODE,
      errorMessage: describeCause(error),
    });
  }
}
