import type { InvocationContext } from '../invocation/invocation-context';
import { getFunctionCalls, type FunctionCall } from '../content';
import {
  InvocationCallbackContext,
  InvocationReadonlyContext,
} from '../context/invocation-contexts';
import { hasSubscribers } from '../diagnostics/channels';
import { publishToolCallsMerged } from './publish-tool-calls-merged';
import { OutputValidationError } from '../errors/output-validation-error';
import { PluginError } from '../errors/plugin-error';
import {
  createEvent,
  createEventActions,
  isFinalResponse,
  type Event,
  type EventActions,
} from '../events';
import type { LlmRequest, LlmResponse, Model } from '../models';
import { callModel, streamModel, type CallModelOptions, type ModelSpan } from './call-model';
import { executeFunctionCalls } from './execute-tools';
import type { FlowAgent } from './flow-agent';
import { errorEvent, modelResponseEvent } from './flow-events';
import { applyOutput } from './output';
import { planRequest, planResponse } from './planning';
import { postprocessors } from './postprocessors';
import { buildRequestNow } from './request-processors/default-processors';
import { withContextCache } from './context-cache-request';
import { resolveTools, type ResolvedTools } from './resolve-tools';
import { compactContext } from './compaction-step';
import { confirmationsToResume, resumeConfirmedCalls } from './confirmation-flow';
import { filterModelEvent, policiesFor } from './policy-hooks';
import { structuredAnswer, structuredAnswerEvent } from './set-model-response-flow';
import { withSetModelResponseTool } from './set-model-response-tool';
import { withTransferTool } from './transfer-to-agent-flow';

/**
 * The flow of an `LlmAgent` (its `runImpl`; `BaseAgent.run` owns the agent's lifecycle around
 * it). It first resumes the calls whose confirmation or credential the user's message answers,
 * then runs steps until the last complete event of a step is a final response (see
 * `isFinalResponse`), a step ends the agent's turn, the invocation ends (`endInvocation`,
 * `maxLlmCalls`), or the run is aborted.
 *
 * A step, in order (each phase is a method of {@link Step}; the events are yielded here):
 * 1. resolve the tools; a toolset that fails becomes a `TOOLSET_ERROR` event;
 * 2. compact the context (agents with a `contextCompressor`);
 * 3. build the request with the agent's request processors, then the planner's changes and
 *    instruction (`planRequest`; a provider tool the model cannot take fails here), and count the call against
 *    `maxLlmCalls`; a failure becomes an error event that ends the step;
 * 4. call the model with its hooks ({@link callModel}; {@link streamModel} when the run streams,
 *    with partial events as they arrive) and emit each final response's event, with `outputKey` /
 *    `outputSchema` applied (responses go through the agent's planner first, `planResponse`);
 * 5. run the function calls of a response concurrently into one function-response event, then
 *    the step postprocessors (confirmation and credential requests, agent transfer).
 *
 * An agent with an `outputSchema` and tools whose model does not declare
 * `capabilities.responseSchemaWithTools` is offered `set_model_response`: a response calling it
 * has its arguments checked against the schema first (invalid: `OUTPUT_VALIDATION_FAILED`, no call
 * runs), then its calls run, then the answer (its JSON as text, the parsed value in `outputKey`)
 * ends the agent's turn. A model response carrying an `errorCode` never has its function calls
 * run: it is stored as it is and ends the turn. When several calls are merged into one
 * function-response event, `toolCallsMerged` is published (only with subscribers).
 *
 * Errors inside a step become error events authored by the agent, which end it: template and
 * instruction errors, unknown model names, model failures not recovered by callbacks, the call
 * limit, invalid structured output. Plugin errors and errors thrown by the agent's own callbacks
 * propagate.
 *
 * The phases yield from this one generator rather than from a generator each: a generator layer
 * costs every event that passes through it, and a turn's CPU grew by about 5% with a step
 * generator (see PERFORMANCE.md).
 */
export async function* runLlmFlow(
  agent: FlowAgent,
  ctx: InvocationContext,
): AsyncGenerator<Event, void> {
  // Checked synchronously: a turn that answers no confirmation creates no generator for it.
  const answered = confirmationsToResume(agent, ctx);
  if (answered.length > 0) yield* resumeConfirmedCalls(agent, ctx, answered);
  // A step's responses and events, declared out here so that each step starts by letting go of
  // the last one's: this generator's frame keeps every register alive while it waits, so a
  // `const` in the loop would hold the previous step's model and tool events (a kilobyte a turn)
  // through the whole next model call, for every turn in flight.
  let finals: LlmResponse[] | undefined;
  let modelEvent: Event | undefined;
  let event: Event | undefined;
  let calls: FunctionCall[] | undefined;
  let responseEvent: Event | undefined;
  while (!ctx.signal.aborted) {
    finals = modelEvent = event = calls = responseEvent = undefined;
    const step = new Step(agent, ctx);
    // 1. Tools. Agents without toolsets resolve synchronously (no await).
    const resolving = step.resolveTools();
    if (resolving) await resolving;
    const toolsetErrors = step.toolsetErrors();
    for (let at = 0; at < toolsetErrors.length; at++) yield step.emit(toolsetErrors[at]!);
    // 2. Compaction: agents without a compressor (most) skip its generator altogether.
    if (agent.contextCompressor) {
      for await (const event of compactContext(agent, ctx)) yield step.emit(event);
    }
    // 3. The request.
    const preparing = step.prepareCall();
    const requestError = preparing instanceof Promise ? await preparing : preparing;
    if (requestError) {
      yield step.emit(requestError);
    } else {
      // 4. The model call (partial events while streaming), then each final response. `break`
      // ends the step; `return` the agent's turn.
      finals = step.streaming ? yield* step.streamModel() : await step.callModel();
      for (let index = 0; index < finals.length; index++) {
        modelEvent = step.event(finals[index]!);
        event = step.filtering ? await step.filter(modelEvent) : modelEvent;
        const invalidOutput = applyOutput(agent, event);
        yield step.emit(event);
        if (invalidOutput) {
          yield step.emit(errorEvent(ctx, agent.name, invalidOutput));
          break;
        }
        if (ctx.signal.aborted) break;
        calls = getFunctionCalls(event.content);
        if (calls.length === 0) continue;
        // A response that is an error (a safety block, a failed call) but still carries function
        // calls is stored as it is and ends the agent's turn: none of them runs.
        if (event.errorCode !== undefined) return;
        // 5. The calls, checked first when they carry the structured answer.
        const answer = step.structuredAnswer(calls);
        if (answer instanceof OutputValidationError) {
          yield step.emit(errorEvent(ctx, agent.name, answer));
          break;
        }
        responseEvent = await step.runCalls(calls);
        if (!responseEvent) continue;
        yield step.emit(responseEvent);
        if (answer !== undefined) {
          // The answer ends the agent's turn like a final text answer: output filters, then
          // `outputKey` (the text is the model's JSON, so it parses to the checked value).
          const answerEvent = structuredAnswerEvent(ctx, agent.name, answer);
          const final = step.filtering ? await step.filter(answerEvent) : answerEvent;
          const invalid = applyOutput(agent, final);
          yield final;
          if (invalid) yield errorEvent(ctx, agent.name, invalid);
          return;
        }
        // Index loop: `for...of` allocates an iterator per loop until the JIT optimized this.
        for (let at = 0; at < postprocessors.length; at++) {
          const events = postprocessors[at]!({ agent, ctx, event: responseEvent });
          if (events === undefined) continue;
          for await (const event of events) yield step.emit(event);
        }
      }
    }
    if (!step.last || ctx.endInvocation || ctx.signal.aborted || isFinalResponse(step.last)) return;
  }
}

/** What a step calls the model with: the model, its request, the step's tools. */
interface PreparedCall {
  model: Model;
  request: LlmRequest;
  /** The agent's tools, with `set_model_response` when the answer must come through a tool. */
  tools: ResolvedTools;
}

/**
 * The phases of one step of {@link runLlmFlow}, and what they share: the step's tools, its model
 * call, the model callbacks' context, and the last complete event, which decides whether the
 * flow goes on.
 */
class Step {
  /** The step's last complete event (see {@link emit}). */
  last: Event | undefined;
  /** Output filters exist only with policies: without any, model events are not awaited on. */
  readonly filtering: boolean;
  /** The run streams (`RunConfig.streamingMode` `sse`): partial events while the model answers. */
  readonly streaming: boolean;
  private readonly context: InvocationReadonlyContext;
  private resolved!: ResolvedTools;
  private call!: PreparedCall;
  private readonly span: ModelSpan = { spanId: undefined };
  private callbackContextOfStep: InvocationCallbackContext | undefined;
  private callbackActions: EventActions | undefined;
  private actionsUsed = false;

  constructor(
    private readonly agent: FlowAgent,
    private readonly ctx: InvocationContext,
  ) {
    this.context = new InvocationReadonlyContext(ctx);
    this.filtering = policiesFor(ctx, agent).length > 0;
    this.streaming = ctx.runConfig.streamingMode === 'sse';
  }

  /** Phase 1: the agent's tools and toolsets (with the transfer tool). A promise only with toolsets. */
  resolveTools(): Promise<void> | undefined {
    const resolving = resolveTools(this.agent, this.context);
    if (resolving instanceof Promise) {
      return resolving.then((resolved) => {
        this.resolved = withTransferTool(this.agent, resolved);
      });
    }
    this.resolved = withTransferTool(this.agent, resolving);
    return undefined;
  }

  /** A `TOOLSET_ERROR` event for each toolset that failed in phase 1. */
  toolsetErrors(): Event[] {
    const { failures } = this.resolved;
    const events: Event[] = [];
    for (let at = 0; at < failures.length; at++) {
      const failure = failures[at]!;
      events.push(
        createEvent({
          invocationId: this.ctx.invocationId,
          author: this.agent.name,
          branch: this.ctx.branch,
          errorCode: 'TOOLSET_ERROR',
          errorMessage: `Toolset "${failure.toolset}" failed: ${failureMessage(failure.error)}`,
        }),
      );
    }
    return events;
  }

  /**
   * Phase 3: the model, its request and the step's tools, and the call counted against
   * `maxLlmCalls`. Synchronous when the request processors are (most agents). Answers the error
   * event of a failure (a template error, an unknown model, the call limit, which also ends the
   * invocation); plugin errors propagate.
   */
  prepareCall(): Event | undefined | Promise<Event | undefined> {
    const { agent, ctx } = this;
    try {
      const model = agent.resolveModel(ctx.models);
      const tools = withSetModelResponseTool(agent, model, this.resolved);
      const building = buildRequestNow(model.name, agent.requestProcessors, {
        agent,
        invocationContext: ctx,
        context: this.context,
        tools: tools.tools,
      });
      if (building instanceof Promise) {
        return building
          .then((request) =>
            this.prepared({
              model,
              request: planRequest(agent, model, request, this.context),
              tools,
            }),
          )
          .catch((error: unknown) => this.requestError(error));
      }
      const request = planRequest(agent, model, building, this.context);
      return this.prepared({ model, request, tools });
    } catch (error) {
      return this.requestError(error);
    }
  }

  /** Phase 4: the model call with its hooks, not streamed (see {@link callModel}). */
  callModel(): Promise<LlmResponse[]> {
    return callModel(this.callOptions());
  }

  /**
   * Phase 4 when the run streams: the events of the partial responses as they arrive (through the
   * output filters); returns the final responses (see {@link streamModel}).
   */
  async *streamModel(): AsyncGenerator<Event, LlmResponse[]> {
    const responses = streamModel(this.callOptions());
    let done = false;
    try {
      for (;;) {
        const next = await responses.next();
        if (next.done) {
          done = true;
          return next.value;
        }
        const chunk = this.event(next.value);
        yield this.filtering ? await this.filter(chunk) : chunk;
      }
    } finally {
      // The consumer stopped mid-stream: close the model's stream (its span ends as cancelled).
      if (!done) await responses.return([]);
    }
  }

  /**
   * The context of the model callbacks and plugins, created when one of them asks for it. Their
   * state changes belong to the first complete event of the step.
   */
  callbackContext(): InvocationCallbackContext {
    return (this.callbackContextOfStep ??= new InvocationCallbackContext(
      this.ctx,
      (this.callbackActions = createEventActions()),
    ));
  }

  private callOptions(): CallModelOptions {
    const { agent, ctx, call } = this;
    return {
      agent,
      ctx,
      model: call.model,
      request: call.request,
      callbacks: this,
      span: this.span,
    };
  }

  /** The event of a model response (the callbacks' state changes on the first complete one). */
  event(answer: LlmResponse): Event {
    // The agent's planner first (PlanReActPlanner marks the planning text as thoughts).
    const response = this.agent.planner
      ? planResponse(this.agent, answer, () => this.callbackContext())
      : answer;
    if (response.partial) {
      return modelResponseEvent(this.ctx, this.agent.name, response, undefined, this.tools.byName);
    }
    const actions = this.actionsUsed ? undefined : this.callbackActions;
    this.actionsUsed = true;
    return modelResponseEvent(this.ctx, this.agent.name, response, actions, this.tools.byName);
  }

  /** `event` through the output filters of the run's and the agent's policies. */
  filter(event: Event): Promise<Event> {
    return filterModelEvent(this.ctx, this.agent, event);
  }

  /**
   * Phase 5, first: the structured answer carried by a `set_model_response` call among `calls`,
   * checked against the agent's schema before any call runs. `undefined` when the step offers no
   * such tool or it was not called.
   */
  structuredAnswer(calls: FunctionCall[]): string | OutputValidationError | undefined {
    if (this.tools === this.resolved) return undefined;
    return structuredAnswer(this.agent, this.tools, calls);
  }

  /** Phase 5: the calls, concurrently, into one function-response event (none: `undefined`). */
  runCalls(calls: FunctionCall[]): Promise<Event | undefined> {
    const { agent, ctx, span } = this;
    const running = executeFunctionCalls({
      agent,
      ctx,
      calls,
      tools: this.tools.byName,
      parentSpanId: span.spanId,
    });
    // One call (most steps): the call's own promise, no async frame around it.
    if (calls.length === 1) return running;
    return running.then((event) => {
      if (event && hasSubscribers('toolCallsMerged'))
        publishToolCallsMerged(ctx, agent.name, span.spanId, event);
      return event;
    });
  }

  /** `event`, remembered as the step's last event when it is complete. */
  emit(event: Event): Event {
    if (!event.partial) this.last = event;
    return event;
  }

  /** The step's tools: with `set_model_response` when the answer must come through a tool. */
  private get tools(): ResolvedTools {
    return this.call.tools;
  }

  private prepared(call: PreparedCall): undefined {
    this.ctx.incrementLlmCallCount();
    // With the app's context caching on, the request carries the agent's cache state.
    this.call = this.ctx.contextCacheConfig
      ? { ...call, request: withContextCache(call.request, this.ctx, this.agent.name) }
      : call;
    return undefined;
  }

  private requestError(error: unknown): Event {
    if (PluginError.isInstance(error)) throw error;
    this.ctx.endInvocation ||= isCallLimit(error);
    return errorEvent(this.ctx, this.agent.name, error, 'REQUEST_ERROR');
  }
}

function isCallLimit(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'MAX_LLM_CALLS_EXCEEDED';
}

function failureMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
