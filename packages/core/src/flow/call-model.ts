import type { InvocationContext } from '../invocation/invocation-context';
import type { FlowAgent } from './flow-agent';
import { newSpanId } from '../invocation/span-id';
import { firstResult, isRetryDecision } from '../callbacks/run-callbacks';
import type { CallbackContext } from '../context';
import { publish } from '../diagnostics/channels';
import { AdkError } from '../errors/adk-error';
import { describeCause } from '../errors/describe-cause';
import type { LlmRequest, LlmResponse, Model } from '../models';
import { StreamAggregator } from '../models/stream-aggregator';
import { mutableContents } from '../history/contents-cache';
import { unlessAborted } from './unless-aborted';

/** Mutable holder of the span id of the model call, read by the tool step (its parent span). */
export interface ModelSpan {
  spanId: string | undefined;
}

/** Arguments of {@link callModel}. */
export interface CallModelOptions {
  agent: FlowAgent;
  ctx: InvocationContext;
  model: Model;
  request: LlmRequest;
  /**
   * The context given to model callbacks and plugins: `callbackContext()` is only called when one
   * of them runs (so a step without model hooks creates none).
   */
  callbacks: { callbackContext(): CallbackContext };
  span: ModelSpan;
}

/**
 * One model turn with its callbacks: `beforeModel` plugins then callbacks (a returned response
 * skips the call), the call itself (streamed when `RunConfig.streamingMode` is `sse`: partial
 * responses are yielded as they arrive), then `afterModel` plugins then callbacks on each final
 * response.
 *
 * When the call throws, `onModelError` plugins then callbacks decide: `{ retry: true }` calls again
 * (at most `agent.maxErrorRetries` times), a response is used instead, `undefined` turns the error
 * into an error response (`errorCode` from the typed error, else `MODEL_ERROR`). When the run is
 * aborted the generator simply ends. Yields partial responses then final ones; never throws
 * except for plugin failures.
 */
export async function* callModel(options: CallModelOptions): AsyncGenerator<LlmResponse, void> {
  const { agent, ctx, request } = options;
  // Request contents are frozen and shared between calls (copy-on-write): hooks that may change
  // the request in place get their own copies first.
  if (
    ctx.plugins.has('beforeModel') ||
    agent.beforeModelCallbacks.length > 0 ||
    ctx.plugins.has('onModelError') ||
    agent.onModelErrorCallbacks.length > 0
  ) {
    request.contents = mutableContents(request.contents);
  }
  // Hooks are skipped outright when nothing listens: no argument objects, no extra awaits.
  const shortCircuit =
    ctx.plugins.has('beforeModel') || agent.beforeModelCallbacks.length > 0
      ? ((await ctx.plugins.beforeModel(ctx, {
          invocationContext: ctx,
          agent,
          callbackContext: options.callbacks.callbackContext(),
          request,
        })) ??
        (await firstResult(agent.beforeModelCallbacks, {
          context: options.callbacks.callbackContext(),
          request,
        })))
      : undefined;
  if (shortCircuit) {
    yield { ...shortCircuit, partial: false };
    return;
  }
  const stream = ctx.runConfig.streamingMode === 'sse';
  for (let attempt = 0; ; attempt++) {
    const { spanId, startTime } = startModelSpan(options, stream);
    const finals: LlmResponse[] = [];
    let completed = false;
    let failed = false;
    try {
      let aggregator: StreamAggregator | undefined;
      const generated = options.model.generate(request, { stream, signal: ctx.signal });
      const responses = generated[Symbol.asyncIterator]();
      let exhausted = false;
      try {
        for (;;) {
          // Waits for the next chunk, or for the abort: a model that ignores the signal cannot
          // keep an aborted run waiting.
          const next = await unlessAborted(responses.next(), ctx.signal);
          if (next === undefined) return;
          if (next.done) {
            exhausted = true;
            break;
          }
          const response = next.value;
          if (response.partial) {
            (aggregator ??= new StreamAggregator()).add(response);
            if (stream) yield response;
          } else {
            finals.push(response);
          }
          if (ctx.signal.aborted) return;
        }
      } finally {
        if (!exhausted) responses.return?.(undefined)?.catch(() => undefined);
      }
      if (finals.length === 0 && aggregator?.hasContent) finals.push(aggregator.final());
      completed = true;
    } catch (error) {
      failed = true;
      publish('modelCallError', () => ({
        spanId,
        invocationId: ctx.invocationId,
        durationMs: performance.now() - startTime,
        error,
      }));
      if (ctx.signal.aborted) return;
      const outcome =
        (await ctx.plugins.onModelError(ctx, {
          invocationContext: ctx,
          agent,
          callbackContext: options.callbacks.callbackContext(),
          request,
          error,
          attempt,
        })) ??
        (await firstResult(agent.onModelErrorCallbacks, {
          context: options.callbacks.callbackContext(),
          request,
          error,
          attempt,
        }));
      if (isRetryDecision(outcome)) {
        if (attempt < agent.maxErrorRetries) continue;
      } else if (outcome) {
        yield { ...outcome, partial: false };
        return;
      }
      yield {
        errorCode: AdkError.isInstance(error) ? error.code : 'MODEL_ERROR',
        errorMessage: describeCause(error),
        turnComplete: true,
      };
      return;
    } finally {
      // Aborted, or the consumer stopped mid-stream: close the span as cancelled.
      if (!completed && !failed) {
        publish('modelCallError', () => ({
          spanId,
          invocationId: ctx.invocationId,
          durationMs: performance.now() - startTime,
          error: ctx.signal.aborted
            ? ctx.signal.reason
            : 'cancelled: the consumer stopped the stream',
        }));
      }
    }
    endModelSpan(ctx, spanId, startTime, finals);
    for (const response of finals) {
      if (!ctx.plugins.has('afterModel') && agent.afterModelCallbacks.length === 0) {
        yield response;
        continue;
      }
      const replaced =
        (await ctx.plugins.afterModel(ctx, {
          invocationContext: ctx,
          agent,
          callbackContext: options.callbacks.callbackContext(),
          response,
        })) ??
        (await firstResult(agent.afterModelCallbacks, {
          context: options.callbacks.callbackContext(),
          response,
        }));
      yield replaced ?? response;
    }
    return;
  }
}

/** Opens the span of one model call: a new span id, recorded in `options.span`, and `modelCallStart`. */
function startModelSpan(
  options: CallModelOptions,
  stream: boolean,
): { spanId: string; startTime: number } {
  const { agent, ctx, request } = options;
  const spanId = newSpanId();
  options.span.spanId = spanId;
  const startTime = performance.now();
  publish('modelCallStart', () => ({
    spanId,
    parentSpanId: ctx.spanId,
    invocationId: ctx.invocationId,
    appName: ctx.appName,
    userId: ctx.userId,
    sessionId: ctx.sessionId,
    startTime,
    agentName: agent.name,
    model: options.model.name,
    stream,
    request,
  }));
  return { spanId, startTime };
}

/** Closes the span of a completed model call with `modelCallEnd`, reporting its last response. */
function endModelSpan(
  ctx: InvocationContext,
  spanId: string,
  startTime: number,
  finals: readonly LlmResponse[],
): void {
  const last = finals[finals.length - 1];
  publish('modelCallEnd', () => ({
    spanId,
    invocationId: ctx.invocationId,
    durationMs: performance.now() - startTime,
    response: last ?? {},
    usage: last?.usageMetadata,
    finishReason: last?.finishReason,
  }));
}
