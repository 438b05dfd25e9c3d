import type { InvocationContext } from '../invocation/invocation-context';
import type { FlowAgent } from './flow-agent';
import { newSpanId } from '../invocation/span-id';
import { firstResult, isRetryDecision } from '../callbacks/run-callbacks';
import type { FunctionCall, Part } from '../content';
import { InvocationToolContext, type ResumedCredential } from '../context/invocation-contexts';
import { hasSubscribers, publish } from '../diagnostics/channels';
import { PluginError } from '../errors/plugin-error';
import { ToolNotFoundError } from '../errors/tool-not-found-error';
import {
  newEventId,
  createEventActions,
  type Event,
  type EventActions,
  type ToolConfirmation,
} from '../events';
import { authorizeToolCall, policiesFor } from './policy-hooks';
import type { Tool } from '../tools/tool';
import { ToolDeadline, toolTimeoutFor } from '../tools/tool-timeout';
import {
  normalizeToolResult,
  toolErrorResponse,
  toStorableToolResponse,
} from '../tools/tool-response';
import { unlessAborted } from './unless-aborted';

/** Arguments of {@link executeFunctionCalls}. */
export interface ExecuteFunctionCallsOptions {
  agent: FlowAgent;
  ctx: InvocationContext;
  /** The calls of one model response, in order (each with an id). */
  calls: readonly FunctionCall[];
  tools: ReadonlyMap<string, Tool>;
  /** Span of the model call that requested the calls (parent of the tool spans). */
  parentSpanId: string | undefined;
  /** Human decisions for calls being resumed after a confirmation, by function call id. */
  confirmations?: Readonly<Record<string, ToolConfirmation>>;
  /**
   * Calls being run again after the user answered a credential request, by function call id: the
   * credential they gave, or the error that answers the call instead of running it (an unusable
   * answer, or a confirmation that expired).
   */
  credentials?: Readonly<Record<string, ResumedCredential | { error: Error }>>;
}

interface CallOutcome {
  part: Part | undefined;
  actions: EventActions;
}

/**
 * Run the function calls of one model response **concurrently** and merge their results into one
 * function-response event (role `user`, authored by the agent), parts in call order.
 *
 * Every call gets its own `ToolContext` and actions; the event's actions merge them in call order
 * (a later call wins on the same state key). Per call: `beforeTool` plugins then callbacks (a value
 * skips the tool), the tool, `afterTool` plugins then callbacks (a value replaces the result). An
 * unknown tool, invalid arguments or a throwing tool give the model `{ error: { code, message } }`
 * after `onToolError` plugins and callbacks had the chance to retry or substitute a result. A
 * long-running tool returning `undefined` contributes no response (the call stays pending).
 *
 * Returns `undefined` when no call produced a response, or as soon as the run is aborted (tools
 * get `context.signal` to stop their work).
 */
export function executeFunctionCalls(
  options: ExecuteFunctionCallsOptions,
): Promise<Event | undefined> {
  const { calls } = options;
  // One call (the common case): its outcome read in one `then`, with no `Promise.all` and its
  // arrays and no async frame kept alive while the tool runs.
  if (calls.length === 1) {
    return unlessAborted(runCall(options, calls[0] as FunctionCall), options.ctx.signal).then(
      (outcome) => outcome && responseEvent(options, [outcome]),
    );
  }
  return unlessAborted(
    Promise.all(calls.map((call) => runCall(options, call))),
    options.ctx.signal,
  ).then((outcomes) => outcomes && responseEvent(options, outcomes));
}

/**
 * The function-response event of the calls' outcomes, in call order; `undefined` when none
 * produced a response or an effect.
 */
function responseEvent(
  options: ExecuteFunctionCallsOptions,
  outcomes: readonly CallOutcome[],
): Event | undefined {
  // Sized up front (an array grown by `push` keeps room for 16 more while the event lives).
  const parts = new Array<Part>(outcomes.length);
  let count = 0;
  const actions = createEventActions();
  for (let index = 0; index < outcomes.length; index++) {
    const outcome = outcomes[index]!;
    if (outcome.part) parts[count++] = outcome.part;
    mergeActions(actions, outcome.actions);
  }
  parts.length = count;
  if (parts.length === 0 && !hasEffects(actions)) return undefined;
  const { ctx, agent } = options;
  // Built here rather than by `createEvent`, which would copy `actions` (four objects) again:
  // they are this event's own already.
  const event: Event = {
    id: newEventId(),
    invocationId: ctx.invocationId,
    author: agent.name,
    timestamp: Date.now(),
    actions,
  };
  if (ctx.branch !== undefined) event.branch = ctx.branch;
  if (parts.length > 0) event.content = { role: 'user', parts };
  return event;
}

async function runCall(
  options: ExecuteFunctionCallsOptions,
  call: FunctionCall,
): Promise<CallOutcome> {
  const { agent, ctx } = options;
  const id = call.id ?? '';
  const actions = createEventActions();
  const tool = options.tools.get(call.name);
  if (!tool) return answer(id, call, actions, await unknownToolResponse(options, call, actions));
  // Only calls resumed after a credential request have an entry (a property read otherwise).
  const resumed = options.credentials?.[id];
  if (resumed && 'error' in resumed)
    return answer(id, call, actions, toolErrorResponse(tool.name, resumed.error));
  const args = call.args ? { ...call.args } : {};
  const toolContext = new InvocationToolContext(
    ctx,
    actions,
    id,
    options.confirmations?.[id],
    resumed,
  );
  // Policies (deny, ask a human) and rejected confirmations: the tool does not run.
  // Without a confirmation answer or a policy there is nothing to check (and no await).
  const refused =
    toolContext.toolConfirmation || policiesFor(ctx, agent).length > 0
      ? await authorizeToolCall({ ctx, agent, toolName: tool.name, args, toolContext })
      : undefined;
  if (refused) return answer(id, call, actions, refused);
  const spanId = newSpanId();
  const startTime = performance.now();
  // The messages' closures live in functions of their own: a closure here would move this async
  // function's variables to the heap on every call, subscribers or not.
  if (hasSubscribers('toolCallStart'))
    publishToolCallStart(options, tool, id, args, spanId, startTime);
  // Hooks are skipped outright when nothing listens: no argument objects, no extra awaits.
  let result: unknown =
    ctx.plugins.has('beforeTool') || agent.beforeToolCallbacks.length > 0
      ? ((await ctx.plugins.beforeTool(ctx, {
          invocationContext: ctx,
          agent,
          tool,
          args,
          toolContext,
        })) ?? (await firstResult(agent.beforeToolCallbacks, { tool, args, context: toolContext })))
      : undefined;
  let failed: unknown;
  let hasFailed = false;
  if (result === undefined) {
    for (let attempt = 0; ; attempt++) {
      try {
        result = await runWithTimeout(tool, args, toolContext, agent, ctx);
        break;
      } catch (error) {
        if (PluginError.isInstance(error)) throw error;
        const outcome = await toolErrorOutcome(ctx, agent, {
          tool,
          args,
          toolContext,
          error,
          attempt,
        });
        if (isRetryDecision(outcome)) {
          if (attempt < agent.maxErrorRetries && !ctx.signal.aborted) continue;
        } else if (outcome !== undefined) {
          result = outcome;
          break;
        }
        failed = error;
        hasFailed = true;
        break;
      }
    }
    const hasAfterHooks = ctx.plugins.has('afterTool') || agent.afterToolCallbacks.length > 0;
    if (hasAfterHooks && !hasFailed && !(tool.isLongRunning && result == null)) {
      const normalized = normalizeToolResult(result);
      result =
        (await ctx.plugins.afterTool(ctx, {
          invocationContext: ctx,
          agent,
          tool,
          args,
          toolContext,
          result: normalized,
        })) ??
        (await firstResult(agent.afterToolCallbacks, {
          tool,
          args,
          context: toolContext,
          result: normalized,
        })) ??
        normalized;
    }
  }
  if (hasFailed) {
    if (hasSubscribers('toolCallError')) publishToolCallError(ctx, spanId, startTime, failed);
    return answer(id, call, actions, toolErrorResponse(tool.name, failed));
  }
  // A long-running tool with no result yet returns undefined or null (Python's None).
  const pending = tool.isLongRunning && result == null;
  const response = pending
    ? undefined
    : toStorableToolResponse(tool.name, normalizeToolResult(result));
  if (hasSubscribers('toolCallEnd')) publishToolCallEnd(ctx, spanId, startTime, response);
  if (
    Object.hasOwn(actions.requestedToolConfirmations, id) ||
    (actions.requestedAuthConfigs !== undefined && Object.hasOwn(actions.requestedAuthConfigs, id))
  )
    actions.skipSummarization = true;
  return response ? answer(id, call, actions, response) : { part: undefined, actions };
}

function publishToolCallStart(
  options: ExecuteFunctionCallsOptions,
  tool: Tool,
  id: string,
  args: Record<string, unknown>,
  spanId: string,
  startTime: number,
): void {
  const { agent, ctx } = options;
  publish('toolCallStart', () => ({
    spanId,
    parentSpanId: options.parentSpanId ?? ctx.spanId,
    invocationId: ctx.invocationId,
    appName: ctx.appName,
    userId: ctx.userId,
    sessionId: ctx.sessionId,
    startTime,
    agentName: agent.name,
    toolName: tool.name,
    toolDescription: tool.description,
    functionCallId: id,
    args,
    ...(tool.telemetryAttributes ? { toolAttributes: tool.telemetryAttributes } : {}),
  }));
}

function publishToolCallError(
  ctx: InvocationContext,
  spanId: string,
  startTime: number,
  error: unknown,
): void {
  publish('toolCallError', () => ({
    spanId,
    invocationId: ctx.invocationId,
    durationMs: performance.now() - startTime,
    error,
  }));
}

function publishToolCallEnd(
  ctx: InvocationContext,
  spanId: string,
  startTime: number,
  result: Record<string, unknown> | undefined,
): void {
  publish('toolCallEnd', () => ({
    spanId,
    invocationId: ctx.invocationId,
    durationMs: performance.now() - startTime,
    result,
  }));
}

/**
 * One attempt of `tool.run` under its timeout (see `toolTimeoutFor`): past it, the call's signal is
 * aborted and the attempt fails with `ToolTimeoutError`, which `onToolError` hooks see like any
 * failure and which otherwise answers the model with `TOOL_TIMEOUT`.
 */
function runWithTimeout(
  tool: Tool,
  args: Record<string, unknown>,
  toolContext: InvocationToolContext,
  agent: FlowAgent,
  ctx: InvocationContext,
): Promise<unknown> {
  const timeoutMs = toolTimeoutFor(tool, agent.toolTimeoutMs, ctx.runConfig.toolTimeoutMs);
  if (timeoutMs === undefined) return tool.run(args, toolContext);
  const deadline = new ToolDeadline(ctx.signal, tool.name, timeoutMs);
  toolContext.deadline = deadline;
  return deadline.race(tool.run(args, toolContext));
}

/** The outcome answering `call` with `response` (a plain function: no closure per call). */
function answer(
  id: string,
  call: FunctionCall,
  actions: EventActions,
  response: Record<string, unknown>,
): CallOutcome {
  return { part: { functionResponse: { id, name: call.name, response } }, actions };
}

/**
 * The response to a call of a tool the agent does not have: `onToolError` plugins and callbacks
 * see the `ToolNotFoundError` (with a stand-in tool carrying the name) and may substitute a result;
 * otherwise the model gets `TOOL_NOT_FOUND` with the available names. A retry cannot help here.
 */
async function unknownToolResponse(
  options: ExecuteFunctionCallsOptions,
  call: FunctionCall,
  actions: EventActions,
): Promise<Record<string, unknown>> {
  const { agent, ctx } = options;
  const error = new ToolNotFoundError({
    toolName: call.name,
    availableTools: [...options.tools.keys()],
  });
  if (ctx.plugins.has('onToolError') || agent.onToolErrorCallbacks.length > 0) {
    const tool: Tool = {
      name: call.name,
      description: '',
      declaration: () => undefined,
      run: () => Promise.reject(error),
    };
    const args = call.args ? { ...call.args } : {};
    const toolContext = new InvocationToolContext(ctx, actions, call.id ?? '');
    const outcome = await toolErrorOutcome(ctx, agent, {
      tool,
      args,
      toolContext,
      error,
      attempt: 0,
    });
    if (outcome !== undefined && !isRetryDecision(outcome)) {
      return toStorableToolResponse(call.name, normalizeToolResult(outcome));
    }
  }
  return toolErrorResponse(call.name, error);
}

/**
 * What the `onToolError` hooks decide for a failed call: plugins first, then the agent's
 * callbacks; the first non-`undefined` answer (a substitute result or a retry decision) wins.
 */
async function toolErrorOutcome(
  ctx: InvocationContext,
  agent: FlowAgent,
  failure: {
    tool: Tool;
    args: Record<string, unknown>;
    toolContext: InvocationToolContext;
    error: unknown;
    attempt: number;
  },
): Promise<unknown> {
  const { tool, args, toolContext, error, attempt } = failure;
  return (
    (await ctx.plugins.onToolError(ctx, {
      invocationContext: ctx,
      agent,
      tool,
      args,
      toolContext,
      error,
      attempt,
    })) ??
    (await firstResult(agent.onToolErrorCallbacks, {
      tool,
      args,
      context: toolContext,
      error,
      attempt,
    }))
  );
}

function mergeActions(target: EventActions, source: EventActions): void {
  Object.assign(target.stateDelta, source.stateDelta);
  Object.assign(target.artifactDelta, source.artifactDelta);
  Object.assign(target.requestedToolConfirmations, source.requestedToolConfirmations);
  if (source.requestedAuthConfigs)
    Object.assign((target.requestedAuthConfigs ??= {}), source.requestedAuthConfigs);
  if (source.transferToAgent !== undefined) target.transferToAgent = source.transferToAgent;
  if (source.escalate) target.escalate = true;
  if (source.skipSummarization) target.skipSummarization = true;
  if (source.compaction) target.compaction = source.compaction;
}

function hasEffects(actions: EventActions): boolean {
  for (const _ in actions.stateDelta) return true;
  for (const _ in actions.artifactDelta) return true;
  for (const _ in actions.requestedToolConfirmations) return true;
  if (actions.requestedAuthConfigs !== undefined) return true;
  return actions.transferToAgent !== undefined || Boolean(actions.escalate);
}
