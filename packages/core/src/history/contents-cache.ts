import type { Content, FunctionCall, Part } from '../content';
import { InvalidArgumentError } from '../errors';
import { approximateBytes, approximateEventBytes, type Event } from '../events';
import { buildFrozenEventContents, type BuildContentsOptions } from './build-contents';
import { isFrameworkFunction } from './framework-functions';
import { INPUT_REJECTED_ERROR_CODE, isShownPlainEvent } from './history';
import { isRewindEvent, withoutRewoundEvents } from './rewound-events';
import { withUserTurnsAtEnds } from './turn-order';

/** Histories shorter than this are built from scratch: caching would cost more than it saves. */
const CACHE_FROM_EVENTS = 24;
/**
 * Prefixes remembered (least recently used first out). The byte budget bounds the memory; this
 * bound is loose so that a server's many sessions in flight each keep theirs: with fewer entries
 * than sessions taking turns in rotation, least-recently-used eviction misses on every turn.
 */
const MAX_ENTRIES = 1024;
/** Events remembered over all entries; bounds the memory held for sessions that went quiet. */
const MAX_EVENTS = 100_000;
/**
 * Default of {@link ContentsCacheOptions.maxBytes}: 4 MiB, chosen with the soak of
 * `packages/bench/src/session-soak.ts` (docs/PERFORMANCE.md, "Caches bounded by bytes").
 */
const DEFAULT_MAX_BYTES = 4 * 2 ** 20;
let maxBytes = DEFAULT_MAX_BYTES;
/** How far back from the end of the events a remembered prefix is looked for. */
const LOOKBACK = 16;
const NO_PARTS: readonly Part[] = Object.freeze([]);

interface Entry {
  readonly key: string;
  /** The prefix the contents were built from, compared element by element on reuse. */
  readonly events: readonly Event[];
  /** Contents of `events`, deeply frozen and shared with every caller. */
  readonly contents: readonly Content[];
  /** Ids of every function call and function response in `events`. */
  readonly ids: Set<string>;
  /** About how much heap the entry keeps alive: its events and its contents. */
  readonly bytes: number;
}

/** Options of {@link configureContentsCache}. */
export interface ContentsCacheOptions {
  /**
   * About how many bytes of heap the remembered prefixes may keep alive, over all of them: their
   * events (estimated with `approximateEventBytes`, counted even when a session store holds the
   * same objects) and their contents. The least recently used are dropped first; a history larger
   * than this on its own is built from scratch each time. Default 4 MiB; `Infinity` leaves only
   * the bounds by count (1,024 prefixes, 100,000 events).
   */
  maxBytes?: number;
}

/**
 * Set the bounds of the process-wide cache behind {@link buildContentsIncrementally} (it is shared
 * by every runner and agent of the process). Applies at once (entries over the new bound are
 * dropped) and returns the bounds in force before, so a test can restore them.
 *
 * @example
 * ```ts
 * import { configureContentsCache } from '@adk/core';
 *
 * configureContentsCache({ maxBytes: 64 * 2 ** 20 }); // a server with long conversations
 * ```
 */
export function configureContentsCache(
  options: ContentsCacheOptions,
): Required<ContentsCacheOptions> {
  const previous = { maxBytes };
  if (options.maxBytes !== undefined) {
    if (!(typeof options.maxBytes === 'number' && options.maxBytes >= 0))
      throw new InvalidArgumentError({
        message: 'maxBytes must be a number of bytes, 0 or more (Infinity: no bound).',
        argument: 'maxBytes',
      });
    maxBytes = options.maxBytes;
  }
  evictOverBounds();
  return previous;
}

/** Remembered prefixes by agent, branch and last event id; least recently used first. */
const entries = new Map<string, Entry>();

function entryKey(key: string, last: Event): string {
  return `${key}\u0000${last.id}`;
}

/**
 * {@link buildContents}, incrementally: when the events start with a prefix whose contents were
 * built before (the previous model call of the invocation, or the previous turn), only the new
 * events are rendered and appended to the remembered contents. The last 1,024 prefixes are
 * remembered (100,000 events and about 4 MiB of heap at most over all of them, see
 * {@link configureContentsCache}). A turn late in a long conversation then costs about as much as
 * an early one, instead of re-rendering the whole history twice.
 *
 * The result always equals `withUserTurnsAtEnds(buildContents(events, options))`: what a model may
 * be sent (the remembered contents are kept without the user turns added at the ends). It is a new array, but its contents
 * are **deeply frozen and shared** with later calls (copy-on-write): code that changes a request in
 * place (model callbacks, tools' request hooks) first takes {@link mutableContents}.
 * - reuse needs the very same event objects at the same positions (compared one by one), frozen
 *   (session stores freeze what they store);
 * - events a rewind removed are left out first (`withoutRewoundEvents`);
 * - new events are appended only when they cannot change how the prefix renders: no compaction,
 *   no rejected input, and every function response among them answers a call made among them,
 *   with an id the prefix never used or one the agent's own call among them used again (models
 *   that number their calls per response repeat ids on every turn); anything else is built from
 *   scratch;
 * - `includeContents: 'none'` and short histories are always built from scratch.
 *
 * @example
 * ```ts
 * const contents = buildContentsIncrementally(ctx.session.events, { agentName: agent.name });
 * ```
 */
export function buildContentsIncrementally(
  allEvents: readonly Event[],
  options: BuildContentsOptions,
): Content[] {
  // What a rewind removed is gone before anything is compared: the conversation that remains is
  // cached like any other (the same event objects, in order).
  const events = withoutRewoundEvents(allEvents);
  if (options.includeContents === 'none' || events.length < CACHE_FROM_EVENTS) {
    return withUserTurnsAtEnds(freezeContents(buildFrozenEventContents(events, options)));
  }
  const key = `${options.agentName}\u0000${options.branch ?? ''}`;
  const found = findPrefix(events, key);
  if (found) {
    const suffix = events.slice(found.events.length);
    const suffixIds = appendableIds(suffix, found.ids, options);
    if (suffixIds) {
      const fresh = freezeContents(buildFrozenEventContents(suffix, options));
      forget(entryKey(key, found.events[found.events.length - 1] as Event));
      for (const id of suffixIds) found.ids.add(id);
      const contents = fresh.length === 0 ? found.contents : found.contents.concat(fresh);
      const bytes = entryBytes(suffix, fresh, maxBytes - found.bytes) + found.bytes;
      remember(events, { key, events: events.slice(), contents, ids: found.ids, bytes });
      return withUserTurnsAtEnds(contents.slice());
    }
  }
  const ids = cacheableIds(events);
  if (!ids) return withUserTurnsAtEnds(freezeContents(buildFrozenEventContents(events, options)));
  const contents = freezeContents(buildFrozenEventContents(events, options));
  const bytes = entryBytes(events, contents, maxBytes);
  remember(events, { key, events: events.slice(), contents, ids, bytes });
  return withUserTurnsAtEnds(contents.slice());
}

function findPrefix(events: readonly Event[], key: string): Entry | undefined {
  for (let end = events.length; end > 0 && end >= events.length - LOOKBACK; end--) {
    const entry = entries.get(entryKey(key, events[end - 1] as Event));
    if (!entry || entry.events.length !== end) continue;
    let same = true;
    for (let index = 0; index < end && same; index++) same = entry.events[index] === events[index];
    if (same) return entry;
  }
  return undefined;
}

/** Events and bytes held by all entries (kept in step with `entries`). */
let rememberedEvents = 0;
let rememberedBytes = 0;

/**
 * About how much heap `events` and their `contents` keep alive (with an array slot per event),
 * counted only until the sum passes `limit`: a sum above the budget only says "not remembered",
 * and estimating the rest of a long history would cost as much as rendering it.
 */
function entryBytes(events: readonly Event[], contents: readonly Content[], limit: number): number {
  let bytes = 8 * events.length;
  for (const event of events) {
    if (bytes > limit) return bytes;
    bytes += approximateEventBytes(event);
  }
  return bytes > limit ? bytes : bytes + approximateBytes(contents);
}

function forget(id: string): void {
  const entry = entries.get(id);
  if (!entry) return;
  entries.delete(id);
  rememberedEvents -= entry.events.length;
  rememberedBytes -= entry.bytes;
}

function remember(events: readonly Event[], entry: Entry): void {
  const id = entryKey(entry.key, events[events.length - 1] as Event);
  forget(id);
  if (entry.events.length > MAX_EVENTS || entry.bytes > maxBytes) return;
  entries.set(id, entry);
  rememberedEvents += entry.events.length;
  rememberedBytes += entry.bytes;
  evictOverBounds();
}

/** Drop the least recently used entries until every bound holds. */
function evictOverBounds(): void {
  while (
    entries.size > MAX_ENTRIES ||
    rememberedEvents > MAX_EVENTS ||
    (rememberedBytes > maxBytes && entries.size > 0)
  ) {
    forget(entries.keys().next().value as string);
  }
}

/** @internal For tests: what the cache holds now. */
export function contentsCacheUsage(): { entries: number; events: number; bytes: number } {
  return { entries: entries.size, events: rememberedEvents, bytes: rememberedBytes };
}

/**
 * Ids of the calls and responses of `events` when they can be remembered (frozen, no compaction,
 * no rejected input); `undefined` otherwise.
 */
function cacheableIds(events: readonly Event[]): Set<string> | undefined {
  const ids = new Set<string>();
  for (let at = 0; at < events.length; at++) {
    const event = events[at]!;
    if (!isPlainStoredEvent(event)) return undefined;
    const parts = event.content?.parts ?? NO_PARTS;
    for (let index = 0; index < parts.length; index++) {
      const part = parts[index]!;
      const id = part.functionCall?.id ?? part.functionResponse?.id;
      if (id) ids.add(id);
    }
  }
  return ids;
}

/**
 * Ids of the calls and responses of `suffix` when it can be rendered on its own and appended to
 * the prefix (see {@link buildContentsIncrementally}); `undefined` otherwise.
 *
 * Rendering pairs a response with the latest earlier visible call of the agent with its id, so a
 * suffix whose responses all answer calls made within it leaves the prefix as it rendered. An id
 * the prefix used may come again (models that number their calls per response do that on every
 * turn) when the agent itself calls with it, visibly, before any response with that id: the
 * response then pairs with the new call in the whole history as in the suffix alone. Any other
 * reuse is built from scratch: another author's call with the id changes how the prefix's answers
 * to it are relayed, and an answer after a call the history leaves out (failed, on another branch,
 * or a framework function's) would answer the prefix's call.
 */
function appendableIds(
  suffix: readonly Event[],
  prefixIds: ReadonlySet<string>,
  options: BuildContentsOptions,
): string[] | undefined {
  const calls = new Set<string>();
  const ids: string[] = [];
  for (let at = 0; at < suffix.length; at++) {
    const event = suffix[at]!;
    if (!isPlainStoredEvent(event)) return undefined;
    const parts = event.content?.parts ?? NO_PARTS;
    for (let index = 0; index < parts.length; index++) {
      const part = parts[index]!;
      const call = part.functionCall;
      const callId = call?.id;
      if (callId) {
        if (prefixIds.has(callId) && !isOwnShownCall(event, call, options)) return undefined;
        calls.add(callId);
        ids.push(callId);
      }
      const responseId = part.functionResponse?.id;
      if (responseId) {
        if (!calls.has(responseId)) return undefined;
        ids.push(responseId);
      }
    }
  }
  return ids;
}

/** Whether `call` is one the agent made in an event its history shows (so responses pair with it). */
function isOwnShownCall(event: Event, call: FunctionCall, options: BuildContentsOptions): boolean {
  return (
    event.author === options.agentName &&
    !isFrameworkFunction(call.name) &&
    isShownPlainEvent(event, options.branch)
  );
}

function isPlainStoredEvent(event: Event): boolean {
  return (
    Object.isFrozen(event) &&
    !event.actions?.compaction &&
    !isRewindEvent(event) &&
    event.errorCode !== INPUT_REJECTED_ERROR_CODE
  );
}

/**
 * Copies of `contents` that may be changed in place: each content, its parts array, its parts and
 * their call and response objects are new (deeper values such as `args` are still shared, as in
 * {@link buildContents}). For code that edits a request built with
 * {@link buildContentsIncrementally}, whose contents are frozen.
 */
export function mutableContents(contents: readonly Content[]): Content[] {
  return contents.map(copyContent);
}

function copyPart(part: Part): Part {
  const copy: Part = { ...part };
  if (part.functionCall) copy.functionCall = { ...part.functionCall };
  if (part.functionResponse) copy.functionResponse = { ...part.functionResponse };
  return copy;
}

function copyContent(content: Content): Content {
  return { ...content, parts: content.parts.map(copyPart) };
}

/** Freeze what {@link buildContents} created (its deeper values come from frozen events). */
function freezeContents(contents: Content[]): Content[] {
  // Index loops: `for...of` allocates per element over arrays of mixed kinds (frozen and not).
  for (let at = 0; at < contents.length; at++) {
    const content = contents[at]!;
    // A stored event's content, shared as it is (`buildFrozenEventContents`): frozen throughout.
    if (Object.isFrozen(content)) continue;
    const parts = content.parts;
    for (let index = 0; index < parts.length; index++) {
      const part = parts[index]!;
      if (part.functionCall) Object.freeze(part.functionCall);
      if (part.functionResponse) Object.freeze(part.functionResponse);
      Object.freeze(part);
    }
    Object.freeze(content.parts);
    Object.freeze(content);
  }
  return contents;
}
