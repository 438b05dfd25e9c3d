import type { AdkEvent } from '../api/types';
import { store } from '../store';
import { byId, h, jsonBlock } from '../util/dom';
import { formatDuration, toMillis } from '../util/time';
import { describeError } from './errors';
import { eventTrace, parseAttribute, sessionSpans, spanMs } from './trace-data';

interface ModelRequest {
  model?: string;
  systemInstruction?: unknown;
  contents?: unknown[];
  config?: { tools?: unknown[] } & Record<string, unknown>;
}

function section(title: string, ...body: (Node | string)[]): HTMLElement {
  return h(
    'details',
    { class: 'section', open: true, 'data-section': title.toLowerCase() },
    h('summary', {}, title),
    ...body,
  );
}

function field(label: string, value: string | number | undefined): HTMLElement | null {
  return value === undefined || value === ''
    ? null
    : h(
        'div',
        { class: 'field' },
        h('span', { class: 'label' }, label),
        h('span', { class: 'value' }, String(value)),
      );
}

/** `181 in / 13 out`, from the trace's counts, else the event's usage; undefined when neither. */
export function tokensText(
  input: number | undefined,
  output: number | undefined,
): string | undefined {
  return input === undefined && output === undefined
    ? undefined
    : `${input ?? '?'} in / ${output ?? '?'} out`;
}

/** The model call that produced an event: request, response, tokens, latency. */
async function modelCall(event: AdkEvent): Promise<HTMLElement[]> {
  const trace = await eventTrace(event.id);
  const usage = event.usageMetadata;
  if (!trace)
    return [
      h(
        'div',
        { class: 'fields model-call' },
        field('Tokens', tokensText(usage?.promptTokenCount, usage?.candidatesTokenCount)),
      ),
      h(
        'p',
        { class: 'muted' },
        'No trace recorded for this event (the server keeps the traces of recent sessions, in memory).',
      ),
    ];
  const request = parseAttribute(trace['gcp.vertex.agent.llm_request']) as ModelRequest | undefined;
  const response = parseAttribute(trace['gcp.vertex.agent.llm_response']);
  const spans = await sessionSpans().catch(() => []);
  const span = spans.find((candidate) => candidate.span_id === trace.span_id);
  const latency = span ? spanMs(span) : undefined;
  const nodes: HTMLElement[] = [];
  if (request) {
    const { tools, ...config } = request.config ?? {};
    nodes.push(
      h(
        'div',
        { class: 'fields model-call' },
        field('Model', (trace['gen_ai.request.model'] as string | undefined) ?? request.model),
        field('Latency', latency === undefined ? undefined : formatDuration(latency)),
        // Tokens once: the trace's counts, else the event's own usage.
        field(
          'Tokens',
          tokensText(
            (trace['gen_ai.usage.input_tokens'] as number | undefined) ?? usage?.promptTokenCount,
            (trace['gen_ai.usage.output_tokens'] as number | undefined) ??
              usage?.candidatesTokenCount,
          ),
        ),
        field(
          'Finish',
          (trace['gen_ai.response.finish_reasons'] as string[] | undefined)?.join(', '),
        ),
      ),
      section(
        'System instruction',
        h(
          'pre',
          { class: 'json' },
          typeof request.systemInstruction === 'string'
            ? request.systemInstruction
            : JSON.stringify(request.systemInstruction ?? '', null, 2),
        ),
      ),
      contentsSection(request, trace['gcp.vertex.agent.llm_request_contents_omitted']),
      section('Tools', jsonBlock(tools ?? [])),
      section('Config', jsonBlock(config)),
      section('Response', jsonBlock(response ?? null)),
    );
  } else if (trace['gen_ai.tool.name']) {
    nodes.push(
      h(
        'div',
        { class: 'fields tool-call' },
        field('Tool', trace['gen_ai.tool.name'] as string),
        field('Latency', latency === undefined ? undefined : formatDuration(latency)),
      ),
      section('Arguments', jsonBlock(parseAttribute(trace['gcp.vertex.agent.tool_call_args']))),
      section('Result', jsonBlock(parseAttribute(trace['gcp.vertex.agent.tool_response']))),
    );
  }
  return nodes;
}

/** Draw the inspector for the selected event. */
export async function drawEventPanel(): Promise<void> {
  const panel = byId('panel-event');
  const event = store.selectedEvent;
  if (!event) {
    panel.replaceChildren(
      h(
        'p',
        { class: 'muted' },
        'Click an event in the conversation to inspect it: the event whole, and for model replies the exact request sent (system instruction, contents, tools, config), the response, token usage and latency.',
      ),
    );
    return;
  }
  panel.replaceChildren(
    h('h2', {}, `Event by ${event.author}`),
    h(
      'div',
      { class: 'fields' },
      field('Id', event.id),
      field('Invocation', event.invocationId),
      field('Time', new Date(toMillis(event.timestamp)).toLocaleString()),
    ),
    h('div', { class: 'model-call-slot' }, h('p', { class: 'muted' }, 'Loading the trace…')),
    section('Event JSON', jsonBlock(event, 'json event-json')),
  );
  const slot = panel.querySelector('.model-call-slot')!;
  try {
    const nodes = event.author === 'user' ? [] : await modelCall(event);
    if (store.selectedEvent?.id === event.id) slot.replaceChildren(...nodes);
  } catch (error) {
    slot.replaceChildren(h('p', { class: 'error' }, describeError(error)));
  }
}

/**
 * The request's contents. The server's trace keeps what is new in each model call (from the last
 * model turn on) rather than the whole history again; the earlier contents are this session's
 * earlier events, and the section says how many were left out.
 */
function contentsSection(request: ModelRequest, omitted: unknown): HTMLElement {
  const shown = request.contents?.length ?? 0;
  const earlier = typeof omitted === 'number' && omitted > 0 ? omitted : 0;
  if (earlier === 0) return section(`Contents (${shown})`, jsonBlock(request.contents ?? []));
  return section(
    `Contents (${shown + earlier})`,
    h(
      'p',
      { class: 'muted contents-omitted' },
      `The ${earlier} earlier content${earlier === 1 ? '' : 's'} of this request (the conversation before the last model turn) are the session's earlier events, not repeated in the trace.`,
    ),
    jsonBlock(request.contents ?? []),
  );
}
