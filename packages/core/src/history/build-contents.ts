import type { Content, Part } from '../content';
import { getText } from '../content';
import type { Event } from '../events';
import { isFrameworkFunction } from './framework-functions';
import { isEmptyPart, selectHistory, type HistoryItem } from './history';
import { reframeAsContext } from './reframe';

/** Options of {@link buildContents}. */
export interface BuildContentsOptions {
  /** The agent the request is for: its own events keep their role, others' become context. */
  agentName: string;
  /** The agent's branch; unset on the main line. */
  branch?: string;
  /** `'none'`: only the current turn (from the latest user message on). Default `'default'`. */
  includeContents?: 'default' | 'none';
}

/** Header of the user turn that stands for compacted history. */
export const SUMMARY_HEADER = '[Previous context summary]';

const USER = 'user';

/** The parts of an event without content. */
const NO_PARTS: readonly Part[] = Object.freeze([]);

/** Shallow copy of a part, including its call/response object, so callers never alias events. */
function copyPart(part: Part): Part {
  const copy: Part = { ...part };
  if (part.functionCall) copy.functionCall = { ...part.functionCall };
  if (part.functionResponse) copy.functionResponse = { ...part.functionResponse };
  return copy;
}

function summaryContent(summary: Content): Content | undefined {
  const text = getText(summary);
  const others = summary.parts
    .filter((part) => part.text === undefined && !isEmptyPart(part))
    .map(copyPart);
  if (text === '' && others.length === 0) return undefined;
  const parts: Part[] = [
    { text: text === '' ? SUMMARY_HEADER : `${SUMMARY_HEADER}\n${text}` },
    ...others,
  ];
  return { role: USER, parts };
}

function isUserMessage(item: HistoryItem): boolean {
  return (
    item.kind === 'event' &&
    item.event.author === USER &&
    (item.event.content?.parts ?? []).some((part) => !part.functionResponse && !isEmptyPart(part))
  );
}

/** Keep the current turn: from the latest user message on, plus the calls answered inside it. */
function currentTurn(items: readonly HistoryItem[], agentName: string): HistoryItem[] {
  let start = -1;
  for (let index = items.length - 1; index >= 0; index--) {
    if (isUserMessage(items[index] as HistoryItem)) {
      start = index;
      break;
    }
  }
  if (start <= 0) return [...items];
  const answered = new Set<string>();
  for (const item of items.slice(start)) {
    for (const part of item.event.content?.parts ?? []) {
      if (part.functionResponse?.id) answered.add(part.functionResponse.id);
    }
  }
  const earlierCalls = items
    .slice(0, start)
    .filter(
      (item) =>
        item.kind === 'event' &&
        item.event.author === agentName &&
        (item.event.content?.parts ?? []).some(
          (part) => part.functionCall?.id && answered.has(part.functionCall.id),
        ),
    );
  return [...earlierCalls, ...items.slice(start)];
}

/**
 * The responses answering one event's calls, in call order, as parts of their own. `answers` is
 * indexed by the call's order among the event's calls (holes: calls not answered).
 */
function responseParts(answers: readonly (Part | undefined)[], shareFrozen: boolean): Part[] {
  const parts: Part[] = [];
  for (let order = 0; order < answers.length; order++) {
    const part = answers[order];
    if (part === undefined) continue;
    // A frozen part holding nothing but the response is what would be built: shared as it is.
    if (shareFrozen && isFrozenPart(part) && isResponseOnly(part)) parts.push(part);
    else parts.push({ functionResponse: { ...part.functionResponse! } });
  }
  return parts;
}

/**
 * The user turn holding the responses that answer one event's calls: `source`, the one stored
 * content they all came from, as it is when it holds exactly those parts in that order and
 * nothing else in them (an event answering its calls in order, the usual case); otherwise a new
 * content.
 */
function answerContent(
  answers: readonly (Part | undefined)[],
  source: Content | null | undefined,
  shareFrozen: boolean,
): Content {
  if (shareFrozen && source && isFrozenContent(source, USER)) {
    const parts = source.parts;
    let at = 0;
    for (let order = 0; order < answers.length && at <= parts.length; order++) {
      const part = answers[order];
      if (part === undefined) continue;
      if (part !== parts[at] || !isResponseOnly(part)) {
        at = -1;
        break;
      }
      at++;
    }
    if (at === parts.length) return source;
  }
  return { role: USER, parts: responseParts(answers, shareFrozen) };
}

/** True when `part`'s only own member is its `functionResponse`. */
function isResponseOnly(part: Part): boolean {
  for (const key in part) if (key !== 'functionResponse') return false;
  return true;
}

interface CallSite {
  item: number;
  order: number;
}

/**
 * Build the `contents` of a model request for `agentName` from a session's events.
 *
 * Rules, in order:
 * 1. **Visibility**: events of other parallel branches, partial chunks, error events and empty
 *    events are skipped; compacted ranges are replaced by a user turn `[Previous context summary]`
 *    (see {@link selectHistory}).
 * 2. **Current turn only** with `includeContents: 'none'`: from the latest user message on (plus
 *    the calls its function responses answer).
 * 3. **Roles**: user events are `user`; the agent's own events keep their role (`model`, or `user`
 *    for its function responses); other agents' events become `For context:` user turns
 *    (`[author] said: ...`, `[author] called tool ...`, `[author] tool ... returned result: ...`).
 * 4. **Pairing**: each of the agent's function calls is followed immediately by one user turn
 *    holding its responses in call order, wherever they arrived (a long-running tool answered in a
 *    later user message, parallel results recorded in separate events). A later response for the
 *    same id replaces an earlier one (a `pending` status replaced by the final result). Calls that
 *    were never answered (a pending long-running call, a call awaiting confirmation) and responses
 *    without a call are left out, because providers reject unpaired calls.
 * 5. Framework functions (`adk_request_confirmation`...) are never shown to the model.
 *
 * This is the history as it is. What the flow sends a model also starts with a user turn and never
 * ends with a model turn ({@link withUserTurnsAtEnds}, applied by `buildContentsIncrementally`).
 *
 * Pure: events are never modified, and the returned contents share no objects with them.
 *
 * @example
 * ```ts
 * const contents = buildContents(session.events, { agentName: 'weather', branch: ctx.branch });
 * ```
 */
export function buildContents(events: readonly Event[], options: BuildContentsOptions): Content[] {
  const { agentName } = options;
  let items = selectHistory(events, { branch: options.branch });
  if (options.includeContents === 'none') items = currentTurn(items, agentName);
  return renderItems(items, agentName, false);
}

/**
 * {@link buildContents} for contents that will be deeply frozen (the request contents of the flow,
 * see `buildContentsIncrementally`): what is frozen in the events is shared instead of copied,
 * since neither side can change it: a content rendered as it is stored (the user's message, the
 * agent's own answer) is the stored content itself, and other contents share frozen parts.
 * Internal to the flow.
 */
export function buildFrozenEventContents(
  events: readonly Event[],
  options: BuildContentsOptions,
): Content[] {
  const { agentName } = options;
  let items = selectHistory(events, { branch: options.branch });
  if (options.includeContents === 'none') items = currentTurn(items, agentName);
  return renderItems(items, agentName, true);
}

/**
 * Render history items (from {@link selectHistory}) as model contents for `agentName`, applying
 * rules 3 to 5 of {@link buildContents}. Pure.
 */
export function renderHistory(items: readonly HistoryItem[], agentName: string): Content[] {
  return renderItems(items, agentName, false);
}

/**
 * True for a content that can stand in a request as it is: frozen with its parts array and every
 * part (a stored event's content), with the role it would be rendered with.
 */
function isFrozenContent(content: Content, role: string): boolean {
  if (content.role !== role || !Object.isFrozen(content) || !Object.isFrozen(content.parts)) {
    return false;
  }
  for (const key in content) if (key !== 'role' && key !== 'parts') return false;
  const parts = content.parts;
  for (let at = 0; at < parts.length; at++) if (!isFrozenPart(parts[at]!)) return false;
  return true;
}

/** True for a part that is frozen down to its call or response (a stored event's part). */
function isFrozenPart(part: Part): boolean {
  return (
    Object.isFrozen(part) &&
    (!part.functionCall || Object.isFrozen(part.functionCall)) &&
    (!part.functionResponse || Object.isFrozen(part.functionResponse))
  );
}

function renderItems(
  items: readonly HistoryItem[],
  agentName: string,
  shareFrozen: boolean,
): Content[] {
  // Pair in one chronological pass: a response answers the latest earlier call with its id (ids
  // may repeat across turns), and only the agent's own events or the user can answer its calls.
  // Created on first use: a history without function calls needs none of them.
  let openCalls: Map<string, CallSite> | undefined;
  let foreignCalls: Map<string, string> | undefined;
  // The response parts answering each item's calls, indexed by item, then by the call's order
  // in its event (sparse arrays: cheaper than maps).
  let answersByItem: (Part | undefined)[][] | undefined;
  // Per item, the content its answers came from: `null` once they came from more than one.
  let answerSources: (Content | null)[] | undefined;
  let consumed: Set<Part> | undefined;
  for (let index = 0; index < items.length; index++) {
    const item = items[index] as HistoryItem;
    if (item.kind !== 'event') continue;
    const { author } = item.event;
    let order = 0;
    const itemParts = item.event.content?.parts ?? NO_PARTS;
    for (let at = 0; at < itemParts.length; at++) {
      const part = itemParts[at]!;
      const call = part.functionCall;
      if (call?.id && !isFrameworkFunction(call.name)) {
        if (author === agentName) {
          (openCalls ??= new Map()).set(call.id, { item: index, order: order++ });
        } else {
          (foreignCalls ??= new Map()).set(call.id, author);
        }
      }
      const response = part.functionResponse;
      if (!response?.id || isFrameworkFunction(response.name)) continue;
      if (author !== agentName && author !== USER) continue;
      const site = openCalls?.get(response.id);
      if (!site) continue;
      answersByItem ??= [];
      const answers = (answersByItem[site.item] ??= []);
      answers[site.order] = part;
      const source = (answerSources ??= [])[site.item];
      const content = item.event.content!;
      answerSources[site.item] = source === undefined || source === content ? content : null;
      (consumed ??= new Set()).add(part);
    }
  }

  const contents: Content[] = [];
  for (let index = 0; index < items.length; index++) {
    const item = items[index] as HistoryItem;
    if (item.kind === 'compaction') {
      const summary = summaryContent(item.compaction.compactedContent);
      if (summary) contents.push(summary);
      continue;
    }
    const { event } = item;
    // The parts kept, made only once one is left out: until then they are the event's first
    // `kept` parts, and an event whose parts are all kept may be shared whole.
    let parts: Part[] | undefined;
    let kept = 0;
    // Created when a response is relayed as context (rare): most events need only `parts`.
    let relayed: Part[] | undefined;
    const answers = answersByItem?.[index];
    let order = 0;
    const eventParts = event.content?.parts ?? NO_PARTS;
    for (let at = 0; at < eventParts.length; at++) {
      const part = eventParts[at]!;
      let keep = true;
      const call = part.functionCall;
      const response = part.functionResponse;
      if (isEmptyPart(part)) keep = false;
      else if (call && isFrameworkFunction(call.name)) keep = false;
      else if (response) {
        keep = false;
        // Own calls' responses are emitted right after their call; answers to other agents' calls
        // (a user resuming someone else's long-running tool) are relayed as context.
        if (isFrameworkFunction(response.name) || consumed?.has(part)) {
          // left out
        } else if (response.id && foreignCalls?.has(response.id)) (relayed ??= []).push(part);
        else if (event.author !== USER && event.author !== agentName) (relayed ??= []).push(part);
      } else if (call && event.author === agentName) {
        const answered = call.id !== undefined && answers?.[order] !== undefined;
        if (call.id !== undefined) order++;
        keep = answered;
      }
      if (!keep) parts ??= eventParts.slice(0, at);
      else if (parts !== undefined) parts.push(part);
      else kept++;
    }
    const allKept = parts === undefined;

    if (event.author === USER || event.author === agentName) {
      const role = event.author === USER ? USER : (event.content?.role ?? 'model');
      if (allKept && kept > 0 && shareFrozen && isFrozenContent(event.content!, role)) {
        // Frozen down to its parts and rendered as it is: the stored content itself.
        contents.push(event.content!);
      } else {
        const shown = parts ?? eventParts.slice(0, kept);
        if (shown.length > 0) {
          for (let i = 0; i < shown.length; i++) {
            const part = shown[i] as Part;
            if (!shareFrozen || !isFrozenPart(part)) shown[i] = copyPart(part);
          }
          contents.push({ role, parts: shown });
        }
      }
      if (relayed !== undefined) {
        const author = foreignCalls?.get(relayed[0]?.functionResponse?.id ?? '') ?? event.author;
        const context = reframeAsContext(author, relayed);
        if (context) contents.push(context);
      }
    } else {
      const shown = parts ?? eventParts;
      const context = reframeAsContext(event.author, relayed ? [...shown, ...relayed] : shown);
      if (context) contents.push(context);
    }

    if (answers) contents.push(answerContent(answers, answerSources?.[index], shareFrozen));
  }
  return contents;
}
