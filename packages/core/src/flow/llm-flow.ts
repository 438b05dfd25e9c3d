import type { InvocationContext } from '../agents/invocation-context';
import type { LlmAgent } from '../agents/llm-agent';
import { getFunctionCalls } from '../content';
import {
  InvocationCallbackContext,
  InvocationReadonlyContext,
} from '../context/invocation-contexts';
import { hasSubscribers } from '../diagnostics/channels';
import { publishToolCallsMerged } from '../diagnostics/publish-tool-calls-merged';
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
import { callModel, callModelDirect, canCallModelDirectly, type ModelSpan } from './call-model';
import { executeFunctionCalls } from './execute-tools';
import { errorEvent, modelResponseEvent } from './flow-events';
import { applyOutput } from './output';
import { buildRequestNow } from './request-processors/default-processors';
import { resolveTools, type ResolvedTools } from './resolve-tools';
import { postprocessors } from './step-postprocessors';
import { compactContext } from '../compression/compaction-step';
import { confirmationsToResume, resumeConfirmedCalls } from '../policies/confirmation-flow';
import { filterModelEvent, policiesFor } from '../policies/policy-hooks';
import { structuredAnswer, structuredAnswerEvent } from '../tools/set-model-response-flow';
import { withSetModelResponseTool } from '../tools/set-model-response-tool';
import { withTransferTool } from '../tools/transfer-to-agent-flow';

/**
 * The loop of an {@link LlmAgent}: run steps until the last complete event of a step is a final
 * response (see `isFinalResponse`), the invocation ends (`endInvocation`, `maxLlmCalls`), or the
 * run is aborted.
 *
 * A step: resolve tools (toolset failures become `TOOLSET_ERROR` events), build the request with
 * the agent's request processors, count the model call, call the model (partial events while
 * streaming), emit the model's event (with `outputKey` / `outputSchema` applied), run its function
 * calls concurrently into one function-response event, then the step postprocessors.
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
 */
export function runLlmFlow(agent: LlmAgent, ctx: InvocationContext): AsyncGenerator<Event, void> {
  return runLlm(agent, ctx, false);
}

/**
 * The whole `run` of an {@link LlmAgent}: the steps of `BaseAgent.run` (the agent's context and
 * diagnostics span, `beforeAgent` / `afterAgent` hooks, `onAgentError` recovery) around
 * {@link runLlmFlow}, in one generator: every event of a turn passes through one generator layer
 * less than with `BaseAgent.run` delegating to `runImpl`. Same events, hooks and diagnostics.
 */
export function runLlmAgent(
  agent: LlmAgent,
  context: InvocationContext,
): AsyncGenerator<Event, void> {
  return runLlm(agent, context, true);
}

/** The flow, and with `asAgentRun` the steps of `BaseAgent.run` around it. */
async function* runLlm(
  agent: LlmAgent,
  context: InvocationContext,
  asAgentRun: boolean,
): AsyncGenerator<Event, void> {
  let ctx = context;
  let startTime = 0;
  let failed = false;
  if (asAgentRun) {
    ctx = agent.runContext(context);
    if (ctx.endInvocation || ctx.signal.aborted) return;
    startTime = agent.startRunSpan(ctx);
  }
  try {
    if (asAgentRun) {
      const before = agent.runBeforeAgentHooks(ctx);
      if (before) {
        const event = await before;
        if (event) yield event;
      }
      if (ctx.endInvocation || ctx.signal.aborted) return;
    }
    flow: {
      // Checked synchronously: a turn that answers no confirmation creates no generator for it.
      const answered = confirmationsToResume(agent, ctx);
      if (answered.length > 0) yield* resumeConfirmedCalls(agent, ctx, answered);
      // The steps run inline (not in a generator of their own): every event of a turn passes through
      // one generator layer less.
      while (!ctx.signal.aborted) {
        // The last complete event of the step: the loop ends when there is none or it is final.
        let last: Event | undefined;
        step: {
          const readonlyContext = new InvocationReadonlyContext(ctx);
          // Agents without toolsets resolve synchronously (no await).
          const resolving = resolveTools(agent, readonlyContext);
          const resolved = withTransferTool(
            agent,
            resolving instanceof Promise ? await resolving : resolving,
          );
          for (let at = 0; at < resolved.failures.length; at++) {
            const failure = resolved.failures[at]!;
            last = createEvent({
              invocationId: ctx.invocationId,
              author: agent.name,
              branch: ctx.branch,
              errorCode: 'TOOLSET_ERROR',
              errorMessage: `Toolset "${failure.toolset}" failed: ${failureMessage(failure.error)}`,
            });
            yield last;
          }
          // Agents without a compressor (most) skip the compaction generator altogether.
          if (agent.contextCompressor) {
            for await (const event of compactContext(agent, ctx)) {
              yield event;
              if (!event.partial) last = event;
            }
          }
          let model: Model;
          let request: LlmRequest;
          // The step's tools: with `set_model_response` when the agent's structured answer must
          // come through a tool (an `outputSchema`, tools, and a model that cannot combine both).
          let tools: ResolvedTools;
          try {
            model = agent.resolveModel(ctx.models);
            tools = withSetModelResponseTool(agent, model, resolved);
            const building = buildRequestNow(model.name, agent.requestProcessors, {
              agent,
              invocationContext: ctx,
              context: readonlyContext,
              tools: tools.tools,
            });
            request = building instanceof Promise ? await building : building;
            ctx.incrementLlmCallCount();
          } catch (error) {
            if (PluginError.isInstance(error)) throw error;
            last = errorEvent(ctx, agent.name, error, 'REQUEST_ERROR');
            yield last;
            ctx.endInvocation ||= isCallLimit(error);
            break step;
          }
          // The model callbacks' context, created only when a callback or plugin runs.
          let callbackActions: EventActions | undefined;
          const span: ModelSpan = { spanId: undefined };
          let actionsUsed = false;
          // Output filters exist only with policies: without any, model events are not awaited on.
          const filtering = policiesFor(ctx, agent).length > 0;
          // The direct path answers with an array, read by index; the hook path with a generator,
          // read by hand and closed like `for await` closes it. `for await` over the array would
          // cost a promise and an await per response, a visible part of a turn while the JIT has
          // not optimized this function yet.
          let list: readonly LlmResponse[] | undefined;
          let generator: AsyncGenerator<LlmResponse, void> | undefined;
          if (canCallModelDirectly(agent, ctx)) {
            // Non-streaming calls without model hooks take the plain async path (no generator, and no
            // callback context to offer: nothing would ask for it).
            list = await callModelDirect({ agent, ctx, model, request, span });
          } else {
            let callbackContext: InvocationCallbackContext | undefined;
            generator = callModel({
              agent,
              ctx,
              model,
              request,
              callbackContext: () =>
                (callbackContext ??= new InvocationCallbackContext(
                  ctx,
                  (callbackActions = createEventActions()),
                )),
              span,
            });
          }
          let index = 0;
          // `for await` semantics for the generator: closed (awaited) when the loop is left early,
          // not when it ran to the end or its `next` threw; a failure to close is ignored only when
          // the loop is left by an exception.
          let exhausted = false;
          let threw = false;
          try {
            for (;;) {
              let response: LlmResponse;
              if (list !== undefined) {
                if (index === list.length) break;
                response = list[index++] as LlmResponse;
              } else {
                let next: IteratorResult<LlmResponse, void>;
                try {
                  next = await generator!.next();
                } catch (error) {
                  exhausted = true;
                  throw error;
                }
                if (next.done) {
                  exhausted = true;
                  break;
                }
                response = next.value;
              }
              if (response.partial) {
                const chunk = modelResponseEvent(
                  ctx,
                  agent.name,
                  response,
                  undefined,
                  tools.byName,
                );
                yield filtering ? await filterModelEvent(ctx, agent, chunk) : chunk;
                continue;
              }
              // The callbacks' state changes belong to the first complete event of the step only.
              const modelEvent = modelResponseEvent(
                ctx,
                agent.name,
                response,
                actionsUsed ? undefined : callbackActions,
                tools.byName,
              );
              const event = filtering ? await filterModelEvent(ctx, agent, modelEvent) : modelEvent;
              actionsUsed = true;
              const invalidOutput = applyOutput(agent, event);
              if (!event.partial) last = event;
              yield event;
              if (invalidOutput) {
                last = errorEvent(ctx, agent.name, invalidOutput);
                yield last;
                break step;
              }
              if (ctx.signal.aborted) break step;
              const calls = getFunctionCalls(event.content);
              if (calls.length === 0) continue;
              // A response that is an error (a safety block, a failed call) but still carries
              // function calls is stored as it is and ends the agent's turn: none of them runs.
              if (event.errorCode !== undefined) break flow;
              // The structured final answer given through `set_model_response`: checked before any
              // call of the response runs.
              let answer: string | undefined;
              if (tools !== resolved) {
                const checked = structuredAnswer(agent, tools, calls);
                if (checked instanceof OutputValidationError) {
                  last = errorEvent(ctx, agent.name, checked);
                  yield last;
                  break step;
                }
                answer = checked;
              }
              const responseEvent = await executeFunctionCalls({
                agent,
                ctx,
                calls,
                tools: tools.byName,
                parentSpanId: span.spanId,
              });
              if (!responseEvent) continue;
              if (calls.length > 1 && hasSubscribers('toolCallsMerged')) {
                publishToolCallsMerged(ctx, agent.name, span.spanId, responseEvent);
              }
              last = responseEvent;
              yield responseEvent;
              if (answer !== undefined) {
                // The answer ends the agent's turn like a final text answer: output filters, then
                // `outputKey` (the text is the model's JSON, so it parses to the checked value).
                const answerEvent = structuredAnswerEvent(ctx, agent.name, answer);
                const final = filtering
                  ? await filterModelEvent(ctx, agent, answerEvent)
                  : answerEvent;
                const invalid = applyOutput(agent, final);
                last = final;
                yield final;
                if (invalid) {
                  last = errorEvent(ctx, agent.name, invalid);
                  yield last;
                }
                break flow;
              }
              // Index loops here and below: `for...of` allocates an iterator per loop until the JIT
              // has optimized this function.
              for (let at = 0; at < postprocessors.length; at++) {
                const events = postprocessors[at]!({ agent, ctx, event: responseEvent });
                if (events === undefined) continue;
                for await (const event of events) {
                  yield event;
                  if (!event.partial) last = event;
                }
              }
            }
          } catch (error) {
            threw = true;
            throw error;
          } finally {
            if (generator !== undefined && !exhausted) {
              if (threw) await generator.return(undefined).catch(() => undefined);
              else await generator.return(undefined);
            }
          }
        }
        if (!last || ctx.endInvocation || ctx.signal.aborted || isFinalResponse(last)) break flow;
      }
    }
    if (asAgentRun) {
      if (ctx.endInvocation || ctx.signal.aborted) return;
      const after = agent.runAfterAgentHooks(ctx);
      if (after) {
        const event = await after;
        if (event) yield event;
      }
    }
  } catch (error) {
    if (!asAgentRun) throw error;
    failed = true;
    const recovered = await agent.recoverFromAgentError(ctx, error, startTime);
    if (recovered) yield recovered;
  } finally {
    // Also when the consumer stops early: every published start gets its end.
    if (asAgentRun && !failed) agent.endRunSpan(ctx, startTime);
  }
}

function isCallLimit(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'MAX_LLM_CALLS_EXCEEDED';
}

function failureMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
