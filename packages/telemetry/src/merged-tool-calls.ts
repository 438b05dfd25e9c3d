import type {
  ModelCallEndMessage,
  ModelCallStartMessage,
  ToolCallsMergedMessage,
  ToolCallStartMessage,
} from '@adk/core';
import { context, trace, type Attributes, type SpanContext, type Tracer } from '@opentelemetry/api';

import { Attr, MERGED_TOOLS, SpanName } from './attributes';
import { safeJson } from './content-capture';

/** A model call still running: what its merged span will need once it asked for tools. */
interface PendingModelCall {
  agentSpanId: string | undefined;
  attributes: Attributes;
}

/** One traced tool call of a group. */
interface TracedCall {
  /** Position among the model's function calls (start order when the response has no ids). */
  order: number;
  functionCallId: string;
  toolName: string;
  startEpochMs: number;
  endEpochMs?: number;
  response?: unknown;
}

/** The function calls of one model response that asked for several. */
interface CallGroup {
  invocationId: string;
  agentSpanId: string | undefined;
  modelSpanContext: SpanContext;
  attributes: Attributes;
  /** Function call ids of the response, in call order (`undefined` where the model gave none). */
  callIds: (string | undefined)[];
  calls: Map<string, TracedCall>;
  finished: number;
  /** Id of the merged function-response event, once core's `toolCallsMerged` named it. */
  eventId?: string;
}

/** Groups and pending model calls beyond which the oldest are forgotten (runs that never end). */
const MAX_TRACKED = 10_000;

/**
 * Builds the `execute_tool (merged)` span of the official ADKs: when one model response asks for
 * several function calls, their results become one merged function-response event, and besides
 * one `execute_tool <tool>` span per call a sibling span stands for that merged response. It is a
 * child of the `call_llm` span (like the calls), starts with the first call and ends with the last.
 *
 * The model's final response says how many calls it made, and the tool-call messages give each
 * call's timing and result. Core's `toolCallsMerged` message (published when the merged event is
 * built) names that event: the span is emitted then, with the event's id in
 * `gcp.vertex.agent.event_id` and `gen_ai.tool.call.id`, as the Python ADK sets them, and the
 * merged calls' ids in `adk.tool.merged_call_ids`. Without that message (a core that does not
 * publish it: `mergedMessages` false) the span is emitted without the event id once every call
 * has ended. Either way, when the message or some calls never come (an unknown tool, a call
 * refused by a policy, an aborted run), it is emitted when the agent moves on (its next model
 * call, its end, or the end of the run).
 */
export class MergedToolCallSpans {
  readonly #tracer: Tracer;
  readonly #captureContent: boolean;
  readonly #models = new Map<string, PendingModelCall>();
  /** Model call span id -> its group. */
  readonly #groups = new Map<string, CallGroup>();
  /** Tool call span id -> model call span id of its group. */
  readonly #toolToModel = new Map<string, string>();

  readonly #mergedMessages: boolean;

  /**
   * @param mergedMessages Whether core publishes `toolCallsMerged` (then a group whose calls have
   * all ended waits for it, to carry the event id). Default true.
   */
  constructor(tracer: Tracer, captureContent: boolean, mergedMessages = true) {
    this.#tracer = tracer;
    this.#captureContent = captureContent;
    this.#mergedMessages = mergedMessages;
  }

  modelStarted(m: ModelCallStartMessage): void {
    // The agent takes its next step: the tool calls of its previous step are over.
    for (const [modelSpanId, group] of this.#groups) {
      if (group.agentSpanId === m.parentSpanId && group.invocationId === m.invocationId)
        this.#emit(modelSpanId);
    }
    remember(this.#models, m.spanId, {
      agentSpanId: m.parentSpanId,
      attributes: {
        [Attr.AGENT_NAME]: m.agentName,
        [Attr.CONVERSATION_ID]: m.sessionId,
        [Attr.INVOCATION_ID]: m.invocationId,
        [Attr.SESSION_ID]: m.sessionId,
      },
    });
  }

  modelEnded(m: ModelCallEndMessage, modelSpanContext: SpanContext): void {
    const pending = this.#models.get(m.spanId);
    this.#models.delete(m.spanId);
    if (!pending) return;
    const callIds = (m.response.content?.parts ?? []).flatMap((part) =>
      part.functionCall ? [part.functionCall.id] : [],
    );
    if (callIds.length < 2) return;
    remember(this.#groups, m.spanId, {
      invocationId: m.invocationId,
      agentSpanId: pending.agentSpanId,
      modelSpanContext,
      attributes: pending.attributes,
      callIds,
      calls: new Map(),
      finished: 0,
    });
  }

  modelFailed(spanId: string): void {
    this.#models.delete(spanId);
  }

  toolStarted(m: ToolCallStartMessage): void {
    if (m.parentSpanId === undefined) return;
    const group = this.#groups.get(m.parentSpanId);
    if (!group) return;
    const index = group.callIds.indexOf(m.functionCallId);
    group.calls.set(m.spanId, {
      order: index >= 0 ? index : group.callIds.length + group.calls.size,
      functionCallId: m.functionCallId,
      toolName: m.toolName,
      startEpochMs: performance.timeOrigin + m.startTime,
    });
    this.#toolToModel.set(m.spanId, m.parentSpanId);
  }

  toolEnded(spanId: string, durationMs: number, response: unknown): void {
    const modelSpanId = this.#toolToModel.get(spanId);
    if (modelSpanId === undefined) return;
    this.#toolToModel.delete(spanId);
    const group = this.#groups.get(modelSpanId);
    const call = group?.calls.get(spanId);
    if (!group || !call) return;
    call.endEpochMs = call.startEpochMs + durationMs;
    call.response = response;
    group.finished += 1;
    if (!this.#mergedMessages && group.finished === group.callIds.length) this.#emit(modelSpanId);
  }

  /** Core built the merged function-response event of a group: emit its span with the event id. */
  merged(m: ToolCallsMergedMessage): void {
    if (m.parentSpanId === undefined) return;
    const group = this.#groups.get(m.parentSpanId);
    if (!group || group.invocationId !== m.invocationId) return;
    group.eventId = m.eventId;
    this.#emit(m.parentSpanId);
  }

  /** The agent span `spanId` ended: its last step's tool calls are over. */
  agentEnded(spanId: string): void {
    for (const [modelSpanId, group] of this.#groups) {
      if (group.agentSpanId === spanId) this.#emit(modelSpanId);
    }
  }

  /** The run ended: emit what is left of it and forget it. */
  runEnded(invocationId: string): void {
    for (const [modelSpanId, group] of this.#groups) {
      if (group.invocationId === invocationId) this.#emit(modelSpanId);
    }
    for (const [spanId, model] of this.#models) {
      if (model.attributes[Attr.INVOCATION_ID] === invocationId) this.#models.delete(spanId);
    }
  }

  /** Forget everything (telemetry stopped). */
  clear(): void {
    this.#models.clear();
    this.#groups.clear();
    this.#toolToModel.clear();
  }

  /** End the group of `modelSpanId` with its merged span, when at least one call finished. */
  #emit(modelSpanId: string): void {
    const group = this.#groups.get(modelSpanId);
    if (!group) return;
    this.#groups.delete(modelSpanId);
    for (const toolSpanId of group.calls.keys()) this.#toolToModel.delete(toolSpanId);
    const done = [...group.calls.values()]
      .filter((call) => call.endEpochMs !== undefined)
      .sort((a, b) => a.order - b.order);
    if (done.length === 0) return;
    const start = Math.min(...done.map((call) => call.startEpochMs));
    const end = Math.max(...done.map((call) => call.endEpochMs!));
    const response = this.#captureContent
      ? safeJson({
          content: {
            role: 'user',
            parts: done.map((call) => ({
              functionResponse: {
                id: call.functionCallId,
                name: call.toolName,
                response: call.response,
              },
            })),
          },
        })
      : '{}';
    const span = this.#tracer.startSpan(
      SpanName.mergedTools,
      {
        startTime: start,
        attributes: {
          [Attr.OPERATION_NAME]: 'execute_tool',
          [Attr.TOOL_NAME]: MERGED_TOOLS,
          [Attr.TOOL_DESCRIPTION]: MERGED_TOOLS,
          ...group.attributes,
          ...(group.eventId === undefined
            ? {}
            : { [Attr.TOOL_CALL_ID]: group.eventId, [Attr.EVENT_ID]: group.eventId }),
          [Attr.MERGED_CALL_IDS]: done.map((call) => call.functionCallId),
          [Attr.TOOL_CALL_ARGS]: 'N/A',
          [Attr.TOOL_RESPONSE]: response,
          [Attr.LLM_REQUEST]: '{}',
          [Attr.LLM_RESPONSE]: '{}',
        },
      },
      trace.setSpanContext(context.active(), group.modelSpanContext),
    );
    span.end(end);
  }
}

/** `map.set`, forgetting the oldest entry beyond {@link MAX_TRACKED}. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.set(key, value);
  if (map.size > MAX_TRACKED) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}
