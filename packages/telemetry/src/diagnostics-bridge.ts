import {
  channelNames,
  subscribe,
  type AgentStartMessage,
  type ChannelKey,
  type ChannelMessages,
  type ModelCallEndMessage,
  type ModelCallStartMessage,
  type RunStartMessage,
  type ToolCallEndMessage,
  type ToolCallStartMessage,
} from '@adk/core';
import {
  context,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';

import { Attr, GEN_AI_SYSTEM, SpanName } from './attributes';
import { requestForSpan, safeJson } from './content-capture';
import type { Instruments } from './instruments';
import { MergedToolCallSpans } from './merged-tool-calls';
import {
  isWorkflowNodeEnd,
  isWorkflowNodeStart,
  subscribeWorkflowNodes,
  type ObservedWorkflowNodeEnd,
  type ObservedWorkflowNodeStart,
} from './workflow-node-messages';

type Kind = 'run' | 'agent' | 'model' | 'tool' | 'node';

interface OpenSpan {
  span: Span;
  kind: Kind;
  invocationId: string;
  /** Epoch milliseconds of the start, to compute the end time from the message's duration. */
  startEpochMs: number;
  /** Attributes recorded on the duration and token metrics. */
  metricAttributes: Attributes;
}

/** A finished span that may still get children (tool calls start after their model call ended). */
interface EndedSpan {
  spanContext: SpanContext;
  invocationId: string;
}

/** Whether the installed core publishes `toolCallsMerged` (it is a peer dependency). */
const CORE_PUBLISHES_MERGED = Object.hasOwn(channelNames, 'toolCallsMerged');

/** Ended spans remembered as parents, beyond which the oldest are forgotten (runs that never end). */
const MAX_ENDED_SPANS = 10_000;

/** Options of {@link DiagnosticsBridge}. */
export interface DiagnosticsBridgeOptions {
  tracer: Tracer;
  instruments: Instruments | undefined;
  captureContent: boolean;
  /**
   * The parent of a run's `invocation` span, when something outside core started it (a job
   * attempt of `@adk/jobs`); default: the active context.
   */
  runParent?: (message: RunStartMessage) => Context | undefined;
}

/**
 * Turns core's lifecycle channel messages into OpenTelemetry spans and metrics.
 *
 * Parentage comes from each message's `parentSpanId` (never from async context, which async
 * generators and parallel branches lose): spans are kept by `spanId` and a child starts in
 * `trace.setSpan(context.active(), parent)`. Ended spans stay known as parents until their run
 * ends, because tool calls start after the model call that requested them has ended.
 */
export class DiagnosticsBridge {
  readonly #open = new Map<string, OpenSpan>();
  readonly #ended = new Map<string, EndedSpan>();
  readonly #options: DiagnosticsBridgeOptions;
  readonly #merged: MergedToolCallSpans;
  #unsubscribers: (() => void)[] = [];

  constructor(options: DiagnosticsBridgeOptions) {
    this.#options = options;
    this.#merged = new MergedToolCallSpans(
      options.tracer,
      options.captureContent,
      CORE_PUBLISHES_MERGED,
    );
  }

  /** Number of spans started and not yet ended (useful to check nothing leaks). */
  get openSpanCount(): number {
    return this.#open.size;
  }

  /** Subscribe to every lifecycle channel. Calling it twice has no further effect. */
  start(): void {
    if (this.#unsubscribers.length > 0) return;
    const on = <K extends ChannelKey>(key: K, handler: (message: ChannelMessages[K]) => void) => {
      this.#unsubscribers.push(subscribe(key, (message) => this.#guard(() => handler(message))));
    };
    on('runStart', (m) => this.#startRun(m));
    on('runEnd', (m) => {
      this.#merged.runEnded(m.invocationId);
      this.#end(m.spanId, m.durationMs, { [Attr.EVENT_COUNT]: m.eventCount });
    });
    on('runError', (m) => {
      this.#merged.runEnded(m.invocationId);
      this.#fail(m.spanId, m.durationMs, m.error);
    });
    on('agentStart', (m) => this.#startAgent(m));
    on('agentEnd', (m) => {
      this.#merged.agentEnded(m.spanId);
      this.#end(m.spanId, m.durationMs);
    });
    on('agentError', (m) => {
      this.#merged.agentEnded(m.spanId);
      this.#fail(m.spanId, m.durationMs, m.error);
    });
    on('modelCallStart', (m) => {
      this.#merged.modelStarted(m);
      this.#startModel(m);
    });
    on('modelCallEnd', (m) => this.#endModel(m));
    on('modelCallError', (m) => {
      this.#merged.modelFailed(m.spanId);
      this.#fail(m.spanId, m.durationMs, m.error);
    });
    on('toolCallStart', (m) => {
      this.#startTool(m);
      this.#merged.toolStarted(m);
    });
    on('toolCallEnd', (m) => {
      this.#endTool(m);
      this.#merged.toolEnded(m.spanId, m.durationMs, m.result);
    });
    // Older cores (before `toolCallsMerged`) have no such channel: the merged span then goes
    // without the event id (see MergedToolCallSpans).
    if (CORE_PUBLISHES_MERGED) on('toolCallsMerged', (m) => this.#merged.merged(m));
    on('toolCallError', (m) => {
      this.#fail(m.spanId, m.durationMs, m.error);
      this.#merged.toolEnded(m.spanId, m.durationMs, { error: errorResponse(m.error) });
    });
    // The node executions of `@adk/workflow`, read by channel name (no dependency on it).
    this.#unsubscribers.push(
      ...subscribeWorkflowNodes({
        start: (m) => this.#guard(() => isWorkflowNodeStart(m) && this.#startNode(m)),
        end: (m) => this.#guard(() => isWorkflowNodeEnd(m) && this.#endNode(m)),
      }),
    );
  }

  #startNode(m: ObservedWorkflowNodeStart): void {
    this.#startSpan(
      m,
      'node',
      SpanName.workflowNode(m.nodeName),
      {
        [Attr.OPERATION_NAME]: 'workflow_node',
        [Attr.WORKFLOW_NAME]: m.workflowName,
        [Attr.WORKFLOW_NODE_NAME]: m.nodeName,
        [Attr.WORKFLOW_NODE_PATH]: m.path,
        [Attr.CONVERSATION_ID]: m.sessionId,
        [Attr.INVOCATION_ID]: m.invocationId,
        [Attr.SESSION_ID]: m.sessionId,
      },
      { [Attr.OPERATION_NAME]: 'workflow_node', [Attr.WORKFLOW_NODE_NAME]: m.nodeName },
    );
  }

  #endNode(m: ObservedWorkflowNodeEnd): void {
    this.#open.get(m.spanId)?.span.setAttributes({
      [Attr.WORKFLOW_NODE_ROUTE]: [...m.route],
      [Attr.WORKFLOW_NODE_RETRY_COUNT]: m.retryCount,
      [Attr.WORKFLOW_NODE_OUTCOME]: m.outcome,
    });
    if (m.outcome === 'failed') this.#fail(m.spanId, m.durationMs, m.error);
    else this.#end(m.spanId, m.durationMs);
  }

  /** Unsubscribe. Spans still open are ended, marked as interrupted. */
  stop(): void {
    for (const unsubscribe of this.#unsubscribers) unsubscribe();
    this.#unsubscribers = [];
    for (const [spanId, open] of this.#open) {
      open.span.setAttribute('adk.span.interrupted', true);
      open.span.end();
      this.#open.delete(spanId);
    }
    this.#ended.clear();
    this.#merged.clear();
  }

  #startRun(m: RunStartMessage): void {
    const parent = m.parentSpanId === undefined ? this.#options.runParent?.(m) : undefined;
    this.#startSpan(
      m,
      'run',
      SpanName.run,
      {
        [Attr.AGENT_NAME]: m.agentName,
        [Attr.APP_NAME]: m.appName,
        [Attr.CONVERSATION_ID]: m.sessionId,
        [Attr.INVOCATION_ID]: m.invocationId,
        [Attr.SESSION_ID]: m.sessionId,
      },
      { [Attr.AGENT_NAME]: m.agentName, [Attr.APP_NAME]: m.appName },
      parent,
    );
  }

  #startAgent(m: AgentStartMessage): void {
    const attributes: Attributes = {
      [Attr.OPERATION_NAME]: 'invoke_agent',
      [Attr.AGENT_NAME]: m.agentName,
      [Attr.AGENT_DESCRIPTION]: m.agentDescription ?? '',
      [Attr.CONVERSATION_ID]: m.sessionId,
      [Attr.INVOCATION_ID]: m.invocationId,
      [Attr.SESSION_ID]: m.sessionId,
    };
    if (m.branch !== undefined) attributes[Attr.BRANCH] = m.branch;
    this.#startSpan(m, 'agent', SpanName.agent(m.agentName), attributes, {
      [Attr.OPERATION_NAME]: 'invoke_agent',
      [Attr.AGENT_NAME]: m.agentName,
    });
  }

  #startModel(m: ModelCallStartMessage): void {
    const config = m.request.config;
    const attributes: Attributes = {
      [Attr.OPERATION_NAME]: 'generate_content',
      [Attr.SYSTEM]: GEN_AI_SYSTEM,
      [Attr.REQUEST_MODEL]: m.model,
      [Attr.AGENT_NAME]: m.agentName,
      [Attr.CONVERSATION_ID]: m.sessionId,
      [Attr.INVOCATION_ID]: m.invocationId,
      [Attr.SESSION_ID]: m.sessionId,
      [Attr.STREAM]: m.stream,
    };
    if (config.temperature !== undefined) attributes[Attr.REQUEST_TEMPERATURE] = config.temperature;
    if (config.topP !== undefined) attributes[Attr.REQUEST_TOP_P] = config.topP;
    if (config.maxOutputTokens !== undefined)
      attributes[Attr.REQUEST_MAX_TOKENS] = config.maxOutputTokens;
    if (this.#options.captureContent)
      attributes[Attr.LLM_REQUEST] = safeJson(requestForSpan(m.request));
    this.#startSpan(m, 'model', SpanName.model, attributes, {
      [Attr.OPERATION_NAME]: 'generate_content',
      [Attr.SYSTEM]: GEN_AI_SYSTEM,
      [Attr.REQUEST_MODEL]: m.model,
      [Attr.AGENT_NAME]: m.agentName,
    });
  }

  #endModel(m: ModelCallEndMessage): void {
    const open = this.#open.get(m.spanId);
    if (!open) return;
    const usage = m.usage ?? m.response.usageMetadata;
    const attributes: Attributes = {};
    if (usage?.promptTokenCount !== undefined)
      attributes[Attr.USAGE_INPUT_TOKENS] = usage.promptTokenCount;
    if (usage?.candidatesTokenCount !== undefined)
      attributes[Attr.USAGE_OUTPUT_TOKENS] = usage.candidatesTokenCount;
    if (usage?.cachedContentTokenCount !== undefined)
      attributes[Attr.USAGE_CACHE_READ_INPUT_TOKENS] = usage.cachedContentTokenCount;
    const finishReason = m.finishReason ?? m.response.finishReason;
    if (finishReason !== undefined)
      attributes[Attr.RESPONSE_FINISH_REASONS] = [finishReason.toLowerCase()];
    if (m.response.modelVersion !== undefined)
      attributes[Attr.RESPONSE_MODEL] = m.response.modelVersion;
    if (this.#options.captureContent) attributes[Attr.LLM_RESPONSE] = safeJson(m.response);
    if (m.response.errorCode !== undefined) {
      // The model answered with an error (e.g. a safety block): the call failed for the caller.
      attributes[Attr.ERROR_TYPE] = m.response.errorCode;
      open.span.setStatus({
        code: SpanStatusCode.ERROR,
        message: m.response.errorMessage ?? m.response.errorCode,
      });
    }
    this.#merged.modelEnded(m, open.span.spanContext());
    this.#options.instruments?.tokens('input', usage?.promptTokenCount, open.metricAttributes);
    this.#options.instruments?.tokens('output', usage?.candidatesTokenCount, open.metricAttributes);
    this.#end(m.spanId, m.durationMs, attributes);
  }

  #startTool(m: ToolCallStartMessage): void {
    const attributes: Attributes = {
      [Attr.OPERATION_NAME]: 'execute_tool',
      [Attr.TOOL_NAME]: m.toolName,
      [Attr.TOOL_DESCRIPTION]: m.toolDescription ?? '',
      [Attr.TOOL_CALL_ID]: m.functionCallId,
      [Attr.AGENT_NAME]: m.agentName,
      [Attr.CONVERSATION_ID]: m.sessionId,
      [Attr.INVOCATION_ID]: m.invocationId,
      [Attr.SESSION_ID]: m.sessionId,
    };
    if (this.#options.captureContent) attributes[Attr.TOOL_CALL_ARGS] = safeJson(m.args);
    // The tool's own attributes (an MCP tool's server and transport) never override ours.
    if (m.toolAttributes) {
      for (const [key, value] of Object.entries(m.toolAttributes)) attributes[key] ??= value;
    }
    this.#startSpan(m, 'tool', SpanName.tool(m.toolName), attributes, {
      [Attr.OPERATION_NAME]: 'execute_tool',
      [Attr.TOOL_NAME]: m.toolName,
      [Attr.AGENT_NAME]: m.agentName,
    });
  }

  #endTool(m: ToolCallEndMessage): void {
    const attributes: Attributes = {};
    if (this.#options.captureContent) {
      const result =
        m.result !== null && typeof m.result === 'object' ? m.result : { result: m.result };
      attributes[Attr.TOOL_RESPONSE] = safeJson(result);
    }
    this.#end(m.spanId, m.durationMs, attributes);
  }

  #startSpan(
    m: {
      spanId: string;
      parentSpanId: string | undefined;
      startTime: number;
      invocationId: string;
    },
    kind: Kind,
    name: string,
    attributes: Attributes,
    metricAttributes: Attributes,
    parent?: Context,
  ): void {
    const parentContext = parent ?? this.#parentContext(m.parentSpanId);
    const startEpochMs = performance.timeOrigin + m.startTime;
    const span = this.#options.tracer.startSpan(
      name,
      { attributes, startTime: startEpochMs },
      parentContext,
    );
    this.#open.set(m.spanId, {
      span,
      kind,
      invocationId: m.invocationId,
      startEpochMs,
      metricAttributes,
    });
  }

  #parentContext(parentSpanId: string | undefined) {
    if (parentSpanId === undefined) return context.active();
    const open = this.#open.get(parentSpanId);
    if (open) return trace.setSpan(context.active(), open.span);
    const ended = this.#ended.get(parentSpanId);
    if (ended) return trace.setSpanContext(context.active(), ended.spanContext);
    return context.active();
  }

  /** Forget `spanId` as an open span; keep it as a possible parent until its run ends. */
  #close(spanId: string, open: OpenSpan): void {
    this.#open.delete(spanId);
    if (open.kind === 'run') {
      for (const [id, ended] of this.#ended) {
        if (ended.invocationId === open.invocationId) this.#ended.delete(id);
      }
      return;
    }
    this.#ended.set(spanId, {
      spanContext: open.span.spanContext(),
      invocationId: open.invocationId,
    });
    if (this.#ended.size > MAX_ENDED_SPANS) {
      const oldest = this.#ended.keys().next().value;
      if (oldest !== undefined) this.#ended.delete(oldest);
    }
  }

  #end(spanId: string, durationMs: number, attributes?: Attributes): void {
    const open = this.#open.get(spanId);
    if (!open) return;
    this.#close(spanId, open);
    if (attributes) open.span.setAttributes(attributes);
    this.#record(open, durationMs, undefined);
    open.span.end(open.startEpochMs + durationMs);
  }

  #fail(spanId: string, durationMs: number, error: unknown): void {
    const open = this.#open.get(spanId);
    if (!open) return;
    this.#close(spanId, open);
    const errorType = errorTypeOf(error);
    open.span.setAttribute(Attr.ERROR_TYPE, errorType);
    open.span.recordException(toException(error), open.startEpochMs + durationMs);
    open.span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(error) });
    this.#record(open, durationMs, errorType);
    open.span.end(open.startEpochMs + durationMs);
  }

  #record(open: OpenSpan, durationMs: number, errorType: string | undefined): void {
    const instruments = this.#options.instruments;
    if (!instruments) return;
    const attributes =
      errorType === undefined
        ? open.metricAttributes
        : { ...open.metricAttributes, [Attr.ERROR_TYPE]: errorType };
    if (open.kind === 'run') instruments.invocation(durationMs, attributes);
    else instruments.operation(durationMs, attributes);
  }

  /** A telemetry failure must never break the agent run that published the message. */
  #guard(action: () => void): void {
    try {
      action();
    } catch {
      // Deliberately swallowed: observability is best effort.
    }
  }
}

function errorTypeOf(error: unknown): string {
  if (error instanceof Error) return error.name || error.constructor.name;
  return typeof error;
}

/** What the merged span records for a failed call: its error type and message. */
function errorResponse(error: unknown): { type: string; message: string } {
  return { type: errorTypeOf(error), message: messageOf(error) };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function toException(error: unknown): Error | string {
  return error instanceof Error ? error : String(error);
}
