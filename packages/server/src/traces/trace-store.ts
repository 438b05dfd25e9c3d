import { getFunctionResponses, subscribe } from '@adk/core';
import type { ChannelKey, ChannelMessages, Event } from '@adk/core';

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

interface Entry {
  span: TraceSpan;
  sessionId: string;
  kind: 'run' | 'agent' | 'model' | 'tool';
  agentName: string | undefined;
  functionCallId: string | undefined;
  startedAt: number;
}

/** Spans kept per session; older ones are dropped first. */
const MAX_SPANS_PER_SESSION = 5000;

const nowNs = (performanceTime: number) =>
  Math.round((performance.timeOrigin + performanceTime) * 1e6);
const json = (value: unknown) => {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
};

/**
 * Keeps the spans of recent runs, built from `@adk/core`'s diagnostics channels, for the debug
 * trace routes. Memory is bounded: only the most recent `maxSessions` sessions are kept.
 */
export class TraceStore {
  private readonly spans = new Map<string, Entry>();
  /** Span ids per session, oldest session first (re-inserted on activity). */
  private readonly sessions = new Map<string, string[]>();
  /** Event id to the attributes of the span that produced it. */
  private readonly events = new Map<string, Record<string, unknown>>();
  private readonly eventsBySession = new Map<string, string[]>();
  private readonly unsubscribers: Array<() => void> = [];

  constructor(private readonly maxSessions = 200) {}

  /** Start listening to the diagnostics channels. */
  start(): void {
    if (this.unsubscribers.length > 0) return;
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
    this.on('modelCallStart', (m) =>
      this.open(m, 'model', 'call_llm', m.agentName, {
        'gen_ai.request.model': m.model,
        'gcp.vertex.agent.agent_name': m.agentName,
        'gcp.vertex.agent.llm_request': json(m.request),
        'gcp.vertex.agent.stream': m.stream,
      }),
    );
    this.on('toolCallStart', (m) => {
      const entry = this.open(m, 'tool', `execute_tool ${m.toolName}`, m.agentName, {
        'gen_ai.tool.name': m.toolName,
        'gen_ai.tool.description': m.toolDescription,
        'gen_ai.tool.call.id': m.functionCallId,
        'gcp.vertex.agent.tool_call_args': json(m.args),
      });
      entry.functionCallId = m.functionCallId;
    });
    this.on('runEnd', (m) =>
      this.close(m.spanId, m.durationMs, { 'gcp.vertex.agent.event_count': m.eventCount }),
    );
    this.on('agentEnd', (m) => this.close(m.spanId, m.durationMs, {}));
    this.on('modelCallEnd', (m) =>
      this.close(m.spanId, m.durationMs, {
        'gcp.vertex.agent.llm_response': json(m.response),
        'gen_ai.usage.input_tokens': m.usage?.promptTokenCount,
        'gen_ai.usage.output_tokens': m.usage?.candidatesTokenCount,
        'gen_ai.response.finish_reasons':
          m.finishReason === undefined ? undefined : [m.finishReason],
      }),
    );
    this.on('toolCallEnd', (m) =>
      this.close(m.spanId, m.durationMs, { 'gcp.vertex.agent.tool_response': json(m.result) }),
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
    this.events.set(event.id, {
      ...found.span.attributes,
      trace_id: found.span.trace_id,
      span_id: found.span.span_id,
    });
    const list = this.eventsBySession.get(sessionId) ?? [];
    list.push(event.id);
    this.eventsBySession.set(sessionId, list);
  }

  /** Attributes of the span that produced an event, or undefined. */
  eventTrace(eventId: string): Record<string, unknown> | undefined {
    return this.events.get(eventId);
  }

  /** Every kept span of a session, in start order. */
  sessionTrace(sessionId: string): TraceSpan[] {
    const ids = this.sessions.get(sessionId) ?? [];
    return ids.flatMap((id) => {
      const entry = this.spans.get(id);
      return entry ? [structuredClone(entry.span)] : [];
    });
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
    const entry: Entry = {
      span: {
        name,
        span_id: message.spanId,
        trace_id: message.invocationId,
        parent_span_id: message.parentSpanId ?? null,
        start_time: nowNs(message.startTime),
        end_time: null,
        attributes: {
          'gcp.vertex.agent.invocation_id': message.invocationId,
          'gcp.vertex.agent.session_id': message.sessionId,
          'gcp.vertex.agent.app_name': message.appName,
          'gcp.vertex.agent.user_id': message.userId,
          ...dropUndefined(attributes),
        },
      },
      sessionId: message.sessionId,
      kind,
      agentName,
      functionCallId: undefined,
      startedAt: message.startTime,
    };
    this.spans.set(message.spanId, entry);
    const ids = this.sessions.get(message.sessionId) ?? [];
    this.sessions.delete(message.sessionId);
    ids.push(message.spanId);
    // A very long session keeps its most recent spans only.
    for (const dropped of ids.splice(0, Math.max(0, ids.length - MAX_SPANS_PER_SESSION))) {
      this.spans.delete(dropped);
    }
    this.sessions.set(message.sessionId, ids);
    this.evict();
    return entry;
  }

  private close(spanId: string, durationMs: number, attributes: Record<string, unknown>): void {
    const entry = this.spans.get(spanId);
    if (!entry) return;
    entry.span.end_time = nowNs(entry.startedAt + durationMs);
    Object.assign(entry.span.attributes, dropUndefined(attributes));
  }

  private evict(): void {
    while (this.sessions.size > this.maxSessions) {
      const [oldest, ids] = this.sessions.entries().next().value as [string, string[]];
      this.sessions.delete(oldest);
      for (const id of ids) this.spans.delete(id);
      for (const eventId of this.eventsBySession.get(oldest) ?? []) this.events.delete(eventId);
      this.eventsBySession.delete(oldest);
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
