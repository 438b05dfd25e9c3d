import type { AdkEvent, Part } from '../api/types';
import { h } from '../util/dom';
import {
  confirmationDeadline,
  deadlineLine,
  deadlinePassedNote,
  isExpiryAnswer,
} from './confirmation-deadline';
import { eventSearchQueries, eventSources } from './sources';

/** Hooks the renderer needs from the page. */
export interface RenderHooks {
  /** Confirmation requests already answered: no buttons for them. */
  answered: Set<string>;
  /** Answer a confirmation request (sends the function response). */
  confirm(call: { id?: string; name: string }, confirmed: boolean): void;
  /**
   * A pending confirmation has a deadline: call `passed` when it has passed (it swaps the buttons
   * for a note); the page then reloads the session to show the server's denial.
   */
  deadline?(requestId: string, at: number, passed: () => void): void;
  /** Open one artifact version (used by the artifact links of events). */
  loadArtifact(name: string, version: number): Promise<string>;
}

export function compact(value: unknown, max = 80): string {
  const text = JSON.stringify(value ?? {});
  return text.length > max ? `${text.slice(0, max - 3)}…` : text;
}

/**
 * The sources block under a grounded answer: the searches run, then each page as a link (opened
 * in a new tab, no referrer). `undefined` when the event has none.
 */
export function sourcesBlock(event: AdkEvent): HTMLElement | undefined {
  const sources = eventSources(event);
  const queries = eventSearchQueries(event);
  if (sources.length === 0 && queries.length === 0) return undefined;
  return h(
    'div',
    { class: 'sources', role: 'group', 'aria-label': 'Sources' },
    h('span', { class: 'sources-label' }, 'Sources'),
    queries.length > 0
      ? h('span', { class: 'sources-queries' }, `searched: ${queries.join(' · ')}`)
      : null,
    sources.length > 0
      ? h(
          'ol',
          {},
          sources.map((source) =>
            h(
              'li',
              {},
              h(
                'a',
                {
                  href: source.uri,
                  target: '_blank',
                  rel: 'noopener noreferrer',
                  title: source.uri,
                },
                source.title,
              ),
            ),
          ),
        )
      : null,
  );
}

/** A block of code the provider ran, or of its output. */
function codeBlock(kind: 'code' | 'code-result', label: string, text: string): HTMLElement {
  const block = h('details', { class: 'tool', 'data-kind': kind }, h('summary', {}, label));
  block.append(h('pre', {}, text));
  return block;
}

function toolBlock(kind: 'call' | 'result', name: string, payload: unknown): HTMLElement {
  const label =
    kind === 'call' ? `→ ${name}(${compact(payload)})` : `← ${name}: ${compact(payload)}`;
  const block = h('details', { class: 'tool', 'data-kind': kind }, h('summary', {}, label));
  block.append(h('pre', {}, JSON.stringify(payload ?? {}, null, 2)));
  return block;
}

export function bubble(author: string, text: string, extra = ''): HTMLElement {
  return h(
    'div',
    { class: `bubble ${author === 'user' ? 'user' : 'agent'} ${extra}`.trim() },
    author === 'user' ? null : h('span', { class: 'author' }, author),
    h('span', { class: 'text' }, text),
  );
}

export function note(text: string, className = 'note'): HTMLElement {
  return h('div', { class: className }, text);
}

/** The error block of a failed event or run: the code and the message, both kept. */
export function errorBubble(code: string | undefined, message: string): HTMLElement {
  return h(
    'div',
    { class: 'bubble error', role: 'alert' },
    h('strong', { class: 'error-code' }, code ?? 'ERROR'),
    h('span', { class: 'text' }, ` ${message}`),
  );
}

function confirmation(
  event: AdkEvent,
  call: NonNullable<Part['functionCall']>,
  hooks: RenderHooks,
) {
  const args = call.args ?? {};
  const original = (args.originalFunctionCall ?? args.original_function_call ?? {}) as {
    name?: string;
    args?: unknown;
  };
  const config = (args.toolConfirmation ?? args.tool_confirmation ?? {}) as { hint?: string };
  const box = h(
    'div',
    { class: 'bubble agent approval' },
    h('span', { class: 'author' }, event.author),
    h(
      'span',
      {},
      `Approval needed: ${original.name ?? 'tool'}(${compact(original.args)}) ${config.hint ?? ''}`,
    ),
  );
  const deadline = confirmationDeadline(args);
  if (deadline !== undefined) box.append(deadlineLine(deadline));
  if (call.id && hooks.answered.has(call.id)) return box;
  if (deadline !== undefined && deadline <= Date.now()) {
    box.append(deadlinePassedNote());
    return box;
  }
  const buttons = h('div', { class: 'confirm' });
  for (const [label, confirmed] of [
    ['Approve', true],
    ['Reject', false],
  ] as const) {
    buttons.append(
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            buttons.remove();
            if (call.id) hooks.answered.add(call.id);
            hooks.confirm(call, confirmed);
          },
        },
        label,
      ),
    );
  }
  box.append(buttons);
  if (deadline !== undefined && call.id)
    hooks.deadline?.(call.id, deadline, () => {
      if (buttons.isConnected) buttons.replaceWith(deadlinePassedNote());
    });
  return box;
}

function artifactLink(name: string, version: number, hooks: RenderHooks): HTMLElement {
  const block = h(
    'details',
    { class: 'tool', 'data-kind': 'artifact' },
    h('summary', {}, `artifact ${name} (v${version})`),
  );
  block.addEventListener('toggle', () => {
    if (!(block as HTMLDetailsElement).open || block.dataset.loaded) return;
    block.dataset.loaded = '1';
    void hooks.loadArtifact(name, version).then(
      (text) => block.append(h('pre', {}, text)),
      (error: unknown) =>
        block.append(h('pre', { class: 'error' }, String((error as Error).message))),
    );
  });
  return block;
}

/** The blocks of one complete (non-partial) event, in order. */
export function renderEvent(event: AdkEvent, hooks: RenderHooks): HTMLElement[] {
  const nodes: HTMLElement[] = [];
  if (event.error && !event.content) {
    nodes.push(errorBubble(event.errorCode, event.errorMessage ?? event.error));
    return nodes;
  }
  for (const part of event.content?.parts ?? []) {
    const call = part.functionCall;
    const response = part.functionResponse;
    if (part.text && part.thought) nodes.push(bubble(event.author, part.text, 'thought'));
    else if (part.text) nodes.push(bubble(event.author, part.text));
    else if (call?.name === 'adk_request_confirmation' && event.author !== 'user')
      nodes.push(confirmation(event, call, hooks));
    else if (call?.name === 'transfer_to_agent') continue;
    else if (call) nodes.push(toolBlock('call', call.name, call.args));
    else if (response?.name === 'adk_request_confirmation') {
      if (response.id) hooks.answered.add(response.id);
      const answer = response.response;
      nodes.push(
        note(
          isExpiryAnswer(answer) ? '⏱ expired' : answer?.confirmed ? '✔ approved' : '✘ rejected',
        ),
      );
    } else if (response?.name === 'transfer_to_agent') continue;
    else if (response) nodes.push(toolBlock('result', response.name, response.response));
    else if (part.inlineData)
      nodes.push(
        note(
          `attached: ${part.inlineData.displayName ?? 'attachment'} (${part.inlineData.mimeType ?? 'data'})`,
          'note attachment',
        ),
      );
    else if (part.fileData)
      nodes.push(
        note(
          `attached: ${part.fileData.displayName ?? part.fileData.fileUri ?? 'file'}`,
          'note attachment',
        ),
      );
    else if (part.executableCode)
      nodes.push(
        codeBlock(
          'code',
          `ran ${(part.executableCode.language ?? 'code').toLowerCase()}`,
          part.executableCode.code ?? '',
        ),
      );
    else if (part.codeExecutionResult)
      nodes.push(
        codeBlock(
          'code-result',
          `output (${part.codeExecutionResult.outcome === 'OUTCOME_OK' ? 'ok' : (part.codeExecutionResult.outcome ?? 'unknown')})`,
          part.codeExecutionResult.output ?? '',
        ),
      );
  }
  const sources = sourcesBlock(event);
  if (sources) nodes.push(sources);
  if (event.errorMessage || event.errorCode)
    nodes.push(errorBubble(event.errorCode, event.errorMessage ?? ''));
  const actions = event.actions ?? {};
  if (actions.transferToAgent) nodes.push(note(`→ transferred to ${actions.transferToAgent}`));
  for (const [name, version] of Object.entries(actions.artifactDelta ?? {}))
    nodes.push(artifactLink(name, version, hooks));
  if (actions.stateDelta && Object.keys(actions.stateDelta).length > 0 && nodes.length === 0)
    nodes.push(note(`state: ${compact(actions.stateDelta)}`, 'note state-change'));
  for (const node of nodes) markEventBlock(node, event.id);
  return nodes;
}

/**
 * Make `node` a block of the event `eventId`: clicking it, or Enter on it, opens the event in
 * the inspector. A tool block is reached through its summary; other blocks take the focus.
 */
export function markEventBlock(node: HTMLElement, eventId: string): void {
  node.dataset.eventId = eventId;
  node.classList.add('event-block');
  if (node.tagName !== 'DETAILS') node.tabIndex = 0;
}
