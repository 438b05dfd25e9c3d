import type { InvocationContext } from '../invocation/invocation-context';
import type { FlowAgent } from './flow-agent';
import { newSpanId } from '../invocation/span-id';
import { firstResult, isRetryDecision } from '../callbacks/run-callbacks';
import type { CallbackContext } from '../context';
import { hasSubscribers, publish } from '../diagnostics/channels';
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

/** Arguments of {@link callModel} and {@link streamModel}. */
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
 * One model call with its hooks, not streamed: `beforeModel` plugins then callbacks (a returned
 * response answers instead of the model), the call (chunks of a provider that always streams are
 * folded into one final response), then `afterModel` plugins then callbacks on each final
 * response.
 *
 * When the call throws, `onModelError` plugins then callbacks decide: `{ retry: true }` calls again
 * (at most `agent.maxErrorRetries` times), a response is used instead, `undefined` turns the error
 * into an error response (`errorCode` from the typed error, else `MODEL_ERROR`). Resolves to the
 * final responses, none when the run is aborted; rejects only with a plugin's failure.
 *
 * {@link streamModel} is the same call read as it streams. The flow awaits this one when the run
 * does not stream: a call read in one await costs a turn less than one read through an async
 * iterator (docs/PERFORMANCE.md, issue 14).
 */
export async function callModel(options: CallModelOptions): Promise<LlmResponse[]> {
  // Hooks nobody set cost no await: a turn's call is one await on the model's answer.
  const before = beforeModel(options);
  const answer = before && (await before);
  if (answer) return [answer];
  const { ctx } = options;
  for (let attempt = 0; ; attempt++) {
    const startTime = performance.now();
    const spanId = startModelSpan(options, false, startTime);
    // What `CallAnswer` keeps, held in this frame: no object per call for the common answer.
    let finals: LlmResponse[] | undefined;
    let chunks: StreamAggregator | undefined;
    try {
      const responses = options.model.generate(options.request, {
        stream: false,
        signal: ctx.signal,
      });
      const iterator = responses[Symbol.asyncIterator]();
      let exhausted = false;
      try {
        for (;;) {
          const next = await unlessAborted(iterator.next(), ctx.signal);
          if (next === undefined || ctx.signal.aborted) {
            cancelModelSpan(options, spanId, startTime);
            return [];
          }
          if (next.done) {
            exhausted = true;
            break;
          }
          const response = next.value;
          if (response.partial) (chunks ??= new StreamAggregator()).add(response);
          else if (finals === undefined) finals = [response];
          else finals.push(response);
        }
      } finally {
        if (!exhausted) iterator.return?.(undefined)?.catch(() => undefined);
      }
    } catch (error) {
      const outcome = await modelCallFailed(options, spanId, startTime, error, attempt);
      if (outcome === RETRY) continue;
      return outcome === undefined ? [] : [outcome];
    }
    finals ??= chunks?.hasContent ? [chunks.final()] : [];
    endModelSpan(options, spanId, startTime, finals);
    return hasAfterModel(options) ? await afterModel(options, finals) : finals;
  }
}

/**
 * {@link callModel} read as the model streams (`RunConfig.streamingMode` `sse`): the same hooks,
 * retries, span and error responses, with each partial response yielded as it arrives. Returns the
 * final responses (after `afterModel`); returns none when the run is aborted or the consumer stops
 * early (the span then ends as cancelled).
 */
export async function* streamModel(
  options: CallModelOptions,
): AsyncGenerator<LlmResponse, LlmResponse[]> {
  const before = beforeModel(options);
  const answer = before && (await before);
  if (answer) return [answer];
  const { ctx } = options;
  for (let attempt = 0; ; attempt++) {
    const startTime = performance.now();
    const spanId = startModelSpan(options, true, startTime);
    const read = new CallAnswer();
    let completed = false;
    let failed = false;
    try {
      const responses = options.model.generate(options.request, {
        stream: true,
        signal: ctx.signal,
      });
      const iterator = responses[Symbol.asyncIterator]();
      let exhausted = false;
      try {
        for (;;) {
          // Waits for the next chunk, or for the abort: a model that ignores the signal cannot
          // keep an aborted run waiting.
          const next = await unlessAborted(iterator.next(), ctx.signal);
          if (next === undefined || ctx.signal.aborted) return [];
          if (next.done) {
            exhausted = true;
            break;
          }
          read.add(next.value);
          if (next.value.partial) yield next.value;
        }
      } finally {
        if (!exhausted) iterator.return?.(undefined)?.catch(() => undefined);
      }
      completed = true;
    } catch (error) {
      failed = true;
      const outcome = await modelCallFailed(options, spanId, startTime, error, attempt);
      if (outcome === RETRY) continue;
      return outcome === undefined ? [] : [outcome];
    } finally {
      // Aborted, or the consumer stopped mid-stream: close the span as cancelled.
      if (!completed && !failed) cancelModelSpan(options, spanId, startTime);
    }
    const finals = read.finals();
    endModelSpan(options, spanId, startTime, finals);
    return hasAfterModel(options) ? await afterModel(options, finals) : finals;
  }
}

/**
 * The final responses of one streamed model call ({@link callModel} reads them the same way, in
 * its own variables): complete responses as they come; the chunks of a provider that sent no
 * complete response folded into one.
 */
class CallAnswer {
  /** Created with the first final response: `[response]` is one slot, `[]` grown by `push` 17. */
  #finals: LlmResponse[] | undefined;
  #chunks: StreamAggregator | undefined;

  add(response: LlmResponse): void {
    if (response.partial) (this.#chunks ??= new StreamAggregator()).add(response);
    else if (this.#finals === undefined) this.#finals = [response];
    else this.#finals.push(response);
  }

  finals(): LlmResponse[] {
    if (this.#finals !== undefined) return this.#finals;
    return this.#chunks?.hasContent ? [this.#chunks.final()] : [];
  }
}

/** The decision of `onModelError` hooks to call the model again. */
const RETRY = Symbol('retry');

/**
 * `beforeModel` plugins then callbacks: the response one of them answers instead of the model.
 * `undefined` at once when there are none. Request contents are frozen and shared between calls
 * (copy-on-write), so hooks that may change the request get their own copy first.
 */
function beforeModel(options: CallModelOptions): Promise<LlmResponse | undefined> | undefined {
  const { agent, ctx, request } = options;
  const before = ctx.plugins.has('beforeModel') || agent.beforeModelCallbacks.length > 0;
  if (before || ctx.plugins.has('onModelError') || agent.onModelErrorCallbacks.length > 0) {
    request.contents = mutableContents(request.contents);
  }
  return before ? runBeforeModel(options) : undefined;
}

async function runBeforeModel(options: CallModelOptions): Promise<LlmResponse | undefined> {
  const { agent, ctx, request } = options;
  const answer =
    (await ctx.plugins.beforeModel(ctx, {
      invocationContext: ctx,
      agent,
      callbackContext: options.callbacks.callbackContext(),
      request,
    })) ??
    (await firstResult(agent.beforeModelCallbacks, {
      context: options.callbacks.callbackContext(),
      request,
    }));
  return answer ? { ...answer, partial: false } : undefined;
}

function hasAfterModel({ agent, ctx }: CallModelOptions): boolean {
  return ctx.plugins.has('afterModel') || agent.afterModelCallbacks.length > 0;
}

/** `afterModel` plugins then callbacks on each final response (each may replace it). */
async function afterModel(
  options: CallModelOptions,
  finals: LlmResponse[],
): Promise<LlmResponse[]> {
  const { agent, ctx } = options;
  const answers: LlmResponse[] = [];
  for (const response of finals) {
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
    answers.push(replaced ?? response);
  }
  return answers;
}

/**
 * A failed call: closes its span with the error, then asks `onModelError` plugins then callbacks.
 * {@link RETRY} to call again, the response to answer with (theirs, or an error response), or
 * `undefined` when the run was aborted.
 */
async function modelCallFailed(
  options: CallModelOptions,
  spanId: string,
  startTime: number,
  error: unknown,
  attempt: number,
): Promise<LlmResponse | typeof RETRY | undefined> {
  const { agent, ctx, request } = options;
  publish('modelCallError', () => ({
    spanId,
    invocationId: ctx.invocationId,
    durationMs: performance.now() - startTime,
    error,
  }));
  if (ctx.signal.aborted) return undefined;
  if (ctx.plugins.has('onModelError') || agent.onModelErrorCallbacks.length > 0) {
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
      if (attempt < agent.maxErrorRetries) return RETRY;
    } else if (outcome) {
      return { ...outcome, partial: false };
    }
  }
  return {
    errorCode: AdkError.isInstance(error) ? error.code : 'MODEL_ERROR',
    errorMessage: describeCause(error),
    turnComplete: true,
  };
}

/**
 * Opens the span of one model call started at `startTime`: a new span id, recorded in
 * `options.span`, and `modelCallStart`. The caller keeps the id and the time in its own variables
 * (no object per call).
 */
function startModelSpan(options: CallModelOptions, stream: boolean, startTime: number): string {
  const spanId = newSpanId();
  options.span.spanId = spanId;
  // The message's closure lives in its own function: a closure here would allocate this
  // function's variables on the heap on every call, subscribers or not.
  if (hasSubscribers('modelCallStart')) publishCallStart(options, spanId, startTime, stream);
  return spanId;
}

function publishCallStart(
  options: CallModelOptions,
  spanId: string,
  startTime: number,
  stream: boolean,
): void {
  const { agent, ctx, request } = options;
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
}

/** Closes the span of a completed model call with `modelCallEnd`, reporting its last response. */
function endModelSpan(
  options: CallModelOptions,
  spanId: string,
  startTime: number,
  finals: readonly LlmResponse[],
) {
  if (hasSubscribers('modelCallEnd')) publishCallEnd(options, spanId, startTime, finals);
}

function publishCallEnd(
  options: CallModelOptions,
  spanId: string,
  startTime: number,
  finals: readonly LlmResponse[],
) {
  const last = finals[finals.length - 1];
  publish('modelCallEnd', () => ({
    spanId,
    invocationId: options.ctx.invocationId,
    durationMs: performance.now() - startTime,
    response: last ?? {},
    usage: last?.usageMetadata,
    finishReason: last?.finishReason,
  }));
}

/** Closes the span of a call cut short: the run was aborted, or the consumer stopped reading. */
function cancelModelSpan(options: CallModelOptions, spanId: string, startTime: number): void {
  const { ctx } = options;
  publish('modelCallError', () => ({
    spanId,
    invocationId: ctx.invocationId,
    durationMs: performance.now() - startTime,
    error: ctx.signal.aborted ? ctx.signal.reason : 'cancelled: the consumer stopped the stream',
  }));
}
