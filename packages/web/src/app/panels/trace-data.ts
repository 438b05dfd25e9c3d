import { api } from '../api/client';
import type { TraceSpan } from '../api/types';
import { store } from '../store';

/** The spans of the open session (`/debug/trace/session/{id}`), in start order. */
export function sessionSpans(): Promise<TraceSpan[]> {
  return api<TraceSpan[]>(`/debug/trace/session/${encodeURIComponent(store.state.sessionId)}`);
}

/** The attributes of the span that produced an event, or undefined when none was recorded. */
export async function eventTrace(eventId: string): Promise<Record<string, unknown> | undefined> {
  return api<Record<string, unknown>>(`/debug/trace/${encodeURIComponent(eventId)}`).catch(
    (error: unknown) => {
      if ((error as { status?: number }).status === 404) return undefined;
      throw error;
    },
  );
}

/** A JSON attribute (the server stores requests and responses as JSON text). */
export function parseAttribute(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** Milliseconds a span took, or undefined while it runs. */
export function spanMs(span: TraceSpan): number | undefined {
  return span.end_time === null ? undefined : (span.end_time - span.start_time) / 1e6;
}
