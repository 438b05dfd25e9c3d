import { getFunctionResponses, subscribe } from '@adk/core';
import type { ChannelKey, ChannelMessages, Event } from '@adk/core';

import { attributesSize, boundedJson, requestForTrace } from './trace-attributes';

/** One finished (or running) span, in the JSON shape the ADK web UI's trace view reads. */
export interface TraceSpan {
  name: string;
  span_id: string;
  /** The invocation the span belongs to. */
  trace_id: string;
  parent_span_id: string | null;
  /** Nanoseconds since the epoch. */
  start_time: number;
  /** Nanoseconds since the epoch; null while the span runs. */
  end_time: number | null;
  attributes: Record<string, unknown>;
}

/** Limits of a {@link TraceStore}; every one has a default. */
export interface TraceStoreOptions {
  /** Sessions whose spans are kept (default 200); the least recently active is dropped first. */
  maxSessions?: number;
  /**
   * Approximate memory the kept spans may take, in bytes (characters of their attribute strings
   * plus a fixed overhead per span and attribute; default 8 MiB). Past it, the least recently
   * active session loses its spans first, then the oldest spans of the session being traced.
   */
  maxBytes?: number;
  /**
   * Largest JSON attribute kept (a model request or response, tool arguments or result), in
   * characters (default 64 KiB); a larger one keeps its beginning, as valid JSON.
   */
  maxAttributeChars?: number;
  /** Largest `/debug/trace/session/...` answer, in bytes as measured above (default 2 MiB). */
  maxResponseBytes?: number;
}

interface Entry {
  span: TraceSpan;
  sessionId: string;
  kind: 'run' | 'agent' | 'model' | 'tool';
  agentName: string | undefined;
  functionCallId: string | undefined;
  startedAt: number;
  /** Size counted for this span in the store's total. */
  bytes: number;
  /** Events linked to this span (dropped with it). */
  eventIds: string[] | undefined;
}

/** Spans kept per session; older ones are dropped first. */
const MAX_SPANS_PER_SESSION = 5000;
/** What a span costs beyond its attribute strings (objects, ids, times). */
const SPAN_OVERHEAD = 400;

const nowNs = (performanceTime: number) =>
  Math.round((performance.timeOrigin + performanceTime) * 1e6);

/**
 * Keeps the spans of recent runs, built from `@adk/core`'s diagnostics channels, for the debug
 * trace routes. Memory is bounded in bytes ({@link TraceStoreOptions}): a model span keeps what is
 * new in its request, not the whole history the request repeats, every JSON attribute is capped,
 * and past `maxBytes` the least recently active sessions lose their spans first. Answers are
 * bounded too: a session's trace returns its most recent spans up to `maxResponseBytes`.
 */
export class TraceStore {
  private readonly spans = new Map<string, Entry>();
  /** Span ids per session, oldest session first (re-inserted on activity). */
  private readonly sessions = new Map<string, string[]>();
  /** Event id to the span that produced it. */
  private readonly events = new Map<string, string>();
  private readonly unsubscribers: Array<() => void> = [];
  private readonly maxSessions: number;
  private readonly maxBytes: number;
  private readonly maxAttributeChars: number;
  private readonly maxResponseBytes: number;
  private totalBytes = 0;

  /** @param options limits, or (as before) the maximum number of sessions alone. */
  constructor(options: TraceStoreOptions | number = {}) {
    const limits = typeof options === 'number' ? { maxSessions: options } : options;
    this.maxSessions = limits.maxSessions ?? 200;
    this.maxBytes = limits.maxBytes ?? 8 * 1024 * 1024;
    this.maxAttributeChars = limits.maxAttributeChars ?? 64 * 1024;
    this.maxResponseBytes = limits.maxResponseBytes ?? 2 * 1024 * 1024;
  }

  /** Approximate memory the kept spans take, in bytes (see {@link TraceStoreOptions.maxBytes}). */
  get size(): number {
    return this.totalBytes;
  }

  /** Start listening to the diagnostics channels. */
  start(): void {
    if (this.unsubscribers.length > 0) return;
    const cap = (value: unknown) => boundedJson(value, this.maxAttributeChars);
    this.on('runStart', (m) =>
      this.open(m, 'run', 'invocation', m.agentName, {
        'gcp.vertex.agent.agent_name': m.agentName,
      }),
    );
    this.on('agentStart', (m) =>
      this.open(m, 'agent', `invoke_agent ${m.agentName}`, m.agentName, {
        'gen_ai.agent.name': m.agentName,
        'gen_ai.agent.description': m.agentDescription,
        'gcp.vertex.agent.branch': m.branch,
      }),
    );
    this.on('modelCallStart', (m) => {
      const { request, omitted } = requestForTrace(m.request);
      this.open(m, 'model', 'call_llm', m.agentName, {
        'gen_ai.request.model': m.model,
        'gcp.vertex.agent.agent_name': m.agentName,
        'gcp.vertex.agent.llm_request': cap(request),
        'gcp.vertex.agent.llm_request_contents_omitted': omitted > 0 ? omitted : undefined,
        'gcp.vertex.agent.stream': m.stream,
      });
    });
    this.on('toolCallStart', (m) => {
      const entry = this.open(m, 'tool', `execute_tool ${m.toolName}`, m.agentName, {
        'gen_ai.tool.name': m.toolName,
        'gen_ai.tool.description': m.toolDescription,
        'gen_ai.tool.call.id': m.functionCallId,
        'gcp.vertex.agent.tool_call_args': cap(m.args),
      });
      entry.functionCallId = m.functionCallId;
    });
    this.on('runEnd', (m) =>
      this.close(m.spanId, m.durationMs, { 'gcp.vertex.agent.event_count': m.eventCount }),
    );
    this.on('agentEnd', (m) => this.close(m.spanId, m.durationMs, {}));
    this.on('modelCallEnd', (m) =>
      this.close(m.spanId, m.durationMs, {
        'gcp.vertex.agent.llm_response': cap(m.response),
        'gen_ai.usage.input_tokens': m.usage?.promptTokenCount,
        'gen_ai.usage.output_tokens': m.usage?.candidatesTokenCount,
        'gen_ai.response.finish_reasons':
          m.finishReason === undefined ? undefined : [m.finishReason],
      }),
    );
    this.on('toolCallEnd', (m) =>
      this.close(m.spanId, m.durationMs, { 'gcp.vertex.agent.tool_response': cap(m.result) }),
    );
    for (const key of ['runError', 'agentError', 'modelCallError', 'toolCallError'] as const) {
      this.on(key, (m) => this.close(m.spanId, m.durationMs, errorAttributes(m.error)));
    }
  }

  /** Stop listening; what was recorded stays readable. */
  stop(): void {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
  }

  /**
   * Remember which span produced `event`: the tool call for a function response, otherwise the
   * latest model call of the event's author in the same invocation.
   */
  linkEvent(sessionId: string, event: Event): void {
    if (event.partial) return;
    const ids = this.sessions.get(sessionId);
    if (!ids) return;
    let found: Entry | undefined;
    const callIds = new Set(getFunctionResponses(event.content).map((response) => response.id));
    for (let index = ids.length - 1; index >= 0 && !found; index--) {
      const entry = this.spans.get(ids[index]!);
      if (!entry || entry.span.trace_id !== event.invocationId) continue;
      if (callIds.size > 0) {
        if (entry.kind === 'tool' && callIds.has(entry.functionCallId)) found = entry;
      } else if (entry.kind === 'model' && entry.agentName === event.author) {
        found = entry;
      }
    }
    if (!found) return;
    found.span.attributes['gcp.vertex.agent.event_id'] = event.id;
    this.events.set(event.id, found.span.span_id);
    (found.eventIds ??= []).push(event.id);
  }

  /** Attributes of the span that produced an event, or undefined (never traced, or dropped). */
  eventTrace(eventId: string): Record<string, unknown> | undefined {
    const spanId = this.events.get(eventId);
    const entry = spanId === undefined ? undefined : this.spans.get(spanId);
    if (!entry) return undefined;
    return {
      ...entry.span.attributes,
      trace_id: entry.span.trace_id,
      span_id: entry.span.span_id,
    };
  }

  /**
   * The kept spans of a session, in start order: its most recent ones, as many as fit in
   * `maxResponseBytes`.
   */
  sessionTrace(sessionId: string): TraceSpan[] {
    const ids = this.sessions.get(sessionId) ?? [];
    const newestFirst: TraceSpan[] = [];
    let bytes = 0;
    for (let index = ids.length - 1; index >= 0; index--) {
      const entry = this.spans.get(ids[index]!);
      if (!entry) continue;
      bytes += entry.bytes;
      if (bytes > this.maxResponseBytes && newestFirst.length > 0) break;
      newestFirst.push(structuredClone(entry.span));
    }
    return newestFirst.reverse();
  }

  private on<K extends ChannelKey>(key: K, listener: (message: ChannelMessages[K]) => void): void {
    this.unsubscribers.push(subscribe(key, listener));
  }

  private open(
    message: ChannelMessages['runStart' | 'agentStart' | 'modelCallStart' | 'toolCallStart'],
    kind: Entry['kind'],
    name: string,
    agentName: string | undefined,
    attributes: Record<string, unknown>,
  ): Entry {
    const spanAttributes = {
      'gcp.vertex.agent.invocation_id': message.invocationId,
      'gcp.vertex.agent.session_id': message.sessionId,
      'gcp.vertex.agent.app_name': message.appName,
      'gcp.vertex.agent.user_id': message.userId,
      ...dropUndefined(attributes),
    };
    const entry: Entry = {
      span: {
        name,
        span_id: message.spanId,
        trace_id: message.invocationId,
        parent_span_id: message.parentSpanId ?? null,
        start_time: nowNs(message.startTime),
        end_time: null,
        attributes: spanAttributes,
      },
      sessionId: message.sessionId,
      kind,
      agentName,
      functionCallId: undefined,
      startedAt: message.startTime,
      bytes: SPAN_OVERHEAD + attributesSize(spanAttributes),
      eventIds: undefined,
    };
    this.spans.set(message.spanId, entry);
    this.totalBytes += entry.bytes;
    const ids = this.sessions.get(message.sessionId) ?? [];
    this.sessions.delete(message.sessionId);
    ids.push(message.spanId);
    this.sessions.set(message.sessionId, ids);
    // A very long session keeps its most recent spans only.
    if (ids.length > MAX_SPANS_PER_SESSION) this.dropOldest(message.sessionId, ids);
    this.evict(message.sessionId);
    return entry;
  }

  private close(spanId: string, durationMs: number, attributes: Record<string, unknown>): void {
    const entry = this.spans.get(spanId);
    if (!entry) return;
    entry.span.end_time = nowNs(entry.startedAt + durationMs);
    const added = dropUndefined(attributes);
    Object.assign(entry.span.attributes, added);
    const grown = attributesSize(added);
    entry.bytes += grown;
    this.totalBytes += grown;
    this.evict(entry.sessionId);
  }

  /** Forget one span, the events linked to it, and its bytes. */
  private forget(spanId: string): void {
    const entry = this.spans.get(spanId);
    if (!entry) return;
    this.spans.delete(spanId);
    this.totalBytes -= entry.bytes;
    for (const eventId of entry.eventIds ?? []) this.events.delete(eventId);
  }

  /** Drop the oldest span of a session (its list is `ids`). */
  private dropOldest(sessionId: string, ids: string[]): void {
    const dropped = ids.shift();
    if (dropped !== undefined) this.forget(dropped);
    if (ids.length === 0) this.sessions.delete(sessionId);
  }

  /**
   * Keep within `maxSessions` and `maxBytes`: whole sessions go first, least recently active
   * first; the session being traced (`current`) then loses its oldest spans.
   */
  private evict(current: string): void {
    for (const [sessionId, ids] of this.sessions) {
      if (this.sessions.size <= this.maxSessions && this.totalBytes <= this.maxBytes) break;
      if (sessionId === current) continue;
      this.sessions.delete(sessionId);
      for (const id of ids) this.forget(id);
    }
    const ids = this.sessions.get(current);
    // Never the newest span: a span that alone exceeds the budget is kept until the next one.
    while (ids && ids.length > 1 && this.totalBytes > this.maxBytes) {
      this.dropOldest(current, ids);
    }
  }
}

function dropUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

function errorAttributes(error: unknown): Record<string, unknown> {
  const isError = error instanceof Error;
  return {
    'error.type': isError ? error.name : typeof error,
    'error.message': isError ? error.message : String(error),
  };
}
