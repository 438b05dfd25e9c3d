import type { TraceSpan } from '../api/types';
import { store } from '../store';
import { byId, h } from '../util/dom';
import { formatDuration } from '../util/time';
import { describeError } from './errors';
import { sessionSpans, spanMs } from './trace-data';

/** The kind of a span from its name: drives its colour. */
export function spanKind(span: TraceSpan): 'run' | 'agent' | 'model' | 'tool' {
  if (span.name.startsWith('invoke_agent')) return 'agent';
  if (span.name.startsWith('call_llm')) return 'model';
  if (span.name.startsWith('execute_tool')) return 'tool';
  return 'run';
}

/** Spans in tree order (each after its parent) with their depth. */
export function treeOrder(spans: TraceSpan[]): { span: TraceSpan; depth: number }[] {
  const ids = new Set(spans.map((span) => span.span_id));
  const children = new Map<string | null, TraceSpan[]>();
  for (const span of spans) {
    const parent = span.parent_span_id && ids.has(span.parent_span_id) ? span.parent_span_id : null;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const out: { span: TraceSpan; depth: number }[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const span of (children.get(parent) ?? []).sort((a, b) => a.start_time - b.start_time)) {
      out.push({ span, depth });
      walk(span.span_id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

function waterfall(invocation: string, spans: TraceSpan[]): HTMLElement {
  const start = Math.min(...spans.map((span) => span.start_time));
  const end = Math.max(...spans.map((span) => span.end_time ?? span.start_time));
  const total = Math.max(end - start, 1);
  const selected = store.selectedEvent;
  const rows = treeOrder(spans).map(({ span, depth }) => {
    const ms = spanMs(span);
    const left = ((span.start_time - start) / total) * 100;
    const width = Math.max((((span.end_time ?? end) - span.start_time) / total) * 100, 0.5);
    const eventId = span.attributes['gcp.vertex.agent.event_id'] as string | undefined;
    const failed = span.attributes['error.message'] !== undefined;
    const row = h(
      'div',
      {
        // `kind-*`, not the bare kind: `.tool` is the chat's tool block.
        class: `span-row kind-${spanKind(span)}${failed ? ' failed' : ''}${eventId && eventId === selected?.id ? ' selected' : ''}`,
        'data-kind': spanKind(span),
        'data-event-id': eventId,
        title: failed ? String(span.attributes['error.message']) : span.name,
        // A row with an event is a control: Tab reaches it, Enter or Space selects its event.
        tabindex: eventId ? 0 : undefined,
        role: eventId ? 'button' : undefined,
      },
      h('span', { class: 'span-name', style: `padding-left:${depth * 12}px` }, span.name),
      h(
        'span',
        { class: 'span-track' },
        h('span', { class: 'span-bar', style: `left:${left}%;width:${width}%` }),
      ),
      h('span', { class: 'span-ms' }, ms === undefined ? 'running' : formatDuration(ms)),
    );
    if (eventId) {
      row.addEventListener('click', () => store.select(eventId));
      row.addEventListener('keydown', (event) => {
        if (event.key !== 'Enter' && event.key !== ' ') return;
        event.preventDefault();
        store.select(eventId);
      });
    }
    return row;
  });
  return h(
    'div',
    { class: 'invocation', 'data-invocation': invocation },
    h(
      'div',
      { class: 'invocation-head' },
      h('span', { class: 'invocation-id', title: invocation }, invocation),
      h('span', { class: 'invocation-ms' }, formatDuration(total / 1e6)),
    ),
    ...rows,
  );
}

/** The waterfall of every invocation of the open session, newest first. */
export async function drawTracePanel(): Promise<void> {
  const panel = byId('panel-trace');
  if (!store.state.sessionId) {
    panel.replaceChildren(h('h2', {}, 'Trace'), h('p', { class: 'muted' }, 'No session yet.'));
    return;
  }
  try {
    const spans = await sessionSpans();
    const byInvocation = new Map<string, TraceSpan[]>();
    for (const span of spans)
      byInvocation.set(span.trace_id, [...(byInvocation.get(span.trace_id) ?? []), span]);
    const blocks = [...byInvocation.entries()].reverse().map(([id, list]) => waterfall(id, list));
    // A redraw keeps the keyboard focus on the row it was on.
    const focused = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>(
      '#panel-trace .span-row',
    )?.dataset.eventId;
    panel.replaceChildren(
      h('h2', {}, 'Trace'),
      h(
        'p',
        { class: 'legend' },
        h('span', { class: 'legend-agent' }, 'agent'),
        h('span', { class: 'legend-model' }, 'model call'),
        h('span', { class: 'legend-tool' }, 'tool call'),
      ),
      ...(blocks.length > 0
        ? blocks
        : [h('p', { class: 'muted' }, 'No spans recorded for this session on this server run.')]),
    );
    if (focused)
      panel
        .querySelector<HTMLElement>(`.span-row[data-event-id="${CSS.escape(focused)}"]`)
        ?.focus();
  } catch (error) {
    panel.replaceChildren(h('h2', {}, 'Trace'), h('p', { class: 'error' }, describeError(error)));
  }
}
