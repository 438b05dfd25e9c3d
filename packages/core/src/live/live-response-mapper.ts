import type { Part } from '../content';
import { createEvent, createEventActions, type Event } from '../events';
import { sequentialUuids } from '../events/random-uuid';
import type { LlmResponse, UsageMetadata } from '../models';
import type { LiveBlobRecorder } from './live-blob-recorder';
import { LiveTranscript, type LiveEventSource } from './live-transcript';

/** What one live response becomes. */
export interface MappedLiveResponse {
  /** Events to yield, in order (partial ones are only shown; the others are stored). */
  events: Event[];
  /** A complete model response with function calls: stored, then its calls run. */
  callEvent?: Event;
  /** A new resumption handle. */
  handle?: string;
  /** The provider announced it will close the connection. */
  goAway?: boolean;
}

/** Options of {@link LiveResponseMapper}. */
export interface LiveResponseMapperOptions {
  /** The current author and branch (they change on an agent transfer). */
  source: () => LiveEventSource;
  /** Build the stored event of a complete model response (ids of calls, long-running marks). */
  modelEvent: (response: LlmResponse) => Event;
  outputBlobs: LiveBlobRecorder | undefined;
  inputBlobs: LiveBlobRecorder | undefined;
}

/**
 * Turns the responses of a live connection into events, following the live event model (see
 * docs/ARCHITECTURE.md, "Live runs"):
 * - audio and text deltas, transcription chunks and `goAway` are partial events: yielded, never
 *   stored;
 * - a finished utterance (a transcription chunk with `finished`, the model starting to answer, a
 *   turn boundary) is stored once, whole, as text (see {@link LiveTranscript}); a provider that
 *   marks its transcription chunks `partial` then sends the whole utterance non-partial, and only
 *   its `finished` counts;
 * - `interrupted` / `turnComplete` are stored, with the turn's usage;
 * - resumption handles are stored (the runner reads the latest one back);
 * - complete model content (function calls, an aggregated text answer) is stored as in a turn.
 */
export class LiveResponseMapper {
  readonly #transcript = new LiveTranscript();
  #usage: UsageMetadata | undefined;
  /** The model said something since the user's last utterance was flushed. */
  #modelSpoke = false;
  /**
   * The sides whose transcription the provider streams as `partial` pieces (Gemini): a later
   * non-partial transcription of that side is the whole of the pieces already shown, so only its
   * `finished` counts (its text would store the utterance twice).
   */
  readonly #piecewise = { input: false, output: false };
  /**
   * Ids of this run's partial events (never stored): unique and of the usual form, cheaper than a
   * random id each (see `sequentialUuids`).
   */
  readonly #partialId = sequentialUuids();

  constructor(private readonly options: LiveResponseMapperOptions) {}

  /**
   * The partial event of a response that is only a model delta (an audio chunk, a text piece)
   * in a turn where the model already spoke: the hot path, without allocating a mapping.
   * `undefined` for any other response (use {@link map}).
   */
  mapDelta(response: LlmResponse): Event | undefined {
    if (!this.#modelSpoke || response.partial !== true || !isPlainDelta(response)) return undefined;
    const parts = response.content?.parts;
    if (!parts || parts.length === 0) return undefined;
    this.#collectDelta(parts);
    const { invocationId, agentName, branch } = this.options.source();
    const content = { role: 'model', parts };
    // The members and their order of `createEvent`'s result, written out (one per chunk).
    return branch === undefined
      ? {
          invocationId,
          author: agentName,
          partial: true,
          content,
          id: this.#partialId(),
          timestamp: Date.now(),
          actions: createEventActions(),
        }
      : {
          invocationId,
          author: agentName,
          branch,
          partial: true,
          content,
          id: this.#partialId(),
          timestamp: Date.now(),
          actions: createEventActions(),
        };
  }

  async map(response: LlmResponse): Promise<MappedLiveResponse> {
    const source = this.options.source();
    const events: Event[] = [];
    const mapped: MappedLiveResponse = { events };
    const partial = (init: Partial<Event>, author = source.agentName): Event =>
      createEvent({
        invocationId: source.invocationId,
        author,
        branch: source.branch,
        partial: true,
        ...init,
        id: this.#partialId(),
      });

    const update = response.liveSessionResumptionUpdate;
    if (update) {
      if (update.newHandle !== undefined && update.resumable !== false) {
        mapped.handle = update.newHandle;
        events.push(
          createEvent({
            invocationId: source.invocationId,
            author: source.agentName,
            branch: source.branch,
            liveSessionResumptionUpdate: { ...update },
          }),
        );
      } else {
        events.push(partial({ liveSessionResumptionUpdate: { ...update } }));
      }
    }
    if (response.goAway) {
      mapped.goAway = true;
      events.push(partial({ goAway: { ...response.goAway } }));
    }
    const input = response.inputTranscription;
    if (input) {
      if (response.partial) this.#piecewise.input = true;
      if (response.partial || !this.#piecewise.input) {
        if (input.text) events.push(partial({ inputTranscription: { text: input.text } }, 'user'));
        this.#transcript.addInput(input.text);
      }
      if (input.finished) await this.#flushInput(events, source);
    }
    const output = response.outputTranscription;
    if (output) {
      await this.#modelStarts(events, source);
      if (response.partial) this.#piecewise.output = true;
      if (response.partial || !this.#piecewise.output) {
        if (output.text) events.push(partial({ outputTranscription: { text: output.text } }));
        this.#transcript.addOutput(output.text);
      }
      if (output.finished) events.push(...this.#transcript.flushOutput(source));
    }
    const parts = response.content?.parts;
    if (parts && parts.length > 0) {
      await this.#modelStarts(events, source);
      if (response.partial) {
        events.push(partial({ content: { role: 'model', parts } }));
        this.#collectDelta(parts);
      } else {
        // A complete answer (calls, or a text the provider aggregated itself): stored as is.
        this.#transcript.dropText();
        const event = this.options.modelEvent({
          content: response.content,
          ...(response.modelVersion !== undefined ? { modelVersion: response.modelVersion } : {}),
        });
        if (parts.some((part) => part.functionCall)) mapped.callEvent = event;
        else events.push(event);
      }
    }
    if (response.errorCode !== undefined) {
      events.push(
        this.options.modelEvent({
          errorCode: response.errorCode,
          ...(response.errorMessage !== undefined ? { errorMessage: response.errorMessage } : {}),
        }),
      );
    }
    if (response.usageMetadata) this.#usage = response.usageMetadata;
    if (response.interrupted || response.turnComplete) {
      events.push(...(await this.#flushTurn(source)));
      const boundary = createEvent({
        invocationId: source.invocationId,
        author: source.agentName,
        branch: source.branch,
        ...(response.interrupted ? { interrupted: true } : {}),
        ...(response.turnComplete ? { turnComplete: true } : {}),
        ...(this.#usage ? { usageMetadata: this.#usage } : {}),
      });
      this.#usage = undefined;
      events.push(boundary);
    }
    return mapped;
  }

  /** Everything collected of the current turn, stored (at a reconnection or the run's end). */
  async flushAll(): Promise<Event[]> {
    const source = this.options.source();
    const events = await this.#flushTurn(source);
    if (this.#usage) {
      events.push(
        createEvent({
          invocationId: source.invocationId,
          author: source.agentName,
          branch: source.branch,
          usageMetadata: this.#usage,
        }),
      );
      this.#usage = undefined;
    }
    return events;
  }

  /** The user's recorded input blobs (at an `activityEnd`), with `saveLiveBlob`. */
  async flushInputBlobs(): Promise<Event[]> {
    return (await this.options.inputBlobs?.flush(this.options.source())) ?? [];
  }

  async #flushTurn(source: LiveEventSource): Promise<Event[]> {
    const events: Event[] = [];
    await this.#flushInput(events, source);
    events.push(...this.#transcript.flushOutput(source));
    events.push(...((await this.options.outputBlobs?.flush(source)) ?? []));
    this.#modelSpoke = false;
    return events;
  }

  async #flushInput(events: Event[], source: LiveEventSource): Promise<void> {
    const heard = this.#transcript.flushInput(source);
    if (heard) events.push(heard);
    events.push(...((await this.options.inputBlobs?.flush(source)) ?? []));
  }

  /** The model's first output of a turn ends the user's utterance. */
  async #modelStarts(events: Event[], source: LiveEventSource): Promise<void> {
    if (this.#modelSpoke) return;
    this.#modelSpoke = true;
    await this.#flushInput(events, source);
  }

  #collectDelta(parts: readonly Part[]): void {
    for (const part of parts) {
      if (part.text !== undefined && !part.thought) this.#transcript.addText(part.text);
      if (part.inlineData) this.options.outputBlobs?.add(part.inlineData);
    }
  }
}

/**
 * Whether a response has no member but those {@link LiveResponseMapper.mapDelta} may ignore
 * (`partial`, `content`, `modelVersion`, `customMetadata`); a `switch`, not a set: once per chunk.
 */
function isPlainDelta(response: LlmResponse): boolean {
  for (const key in response) {
    switch (key) {
      case 'partial':
      case 'content':
      case 'modelVersion':
      case 'customMetadata':
        continue;
      default:
        if ((response as Record<string, unknown>)[key] !== undefined) return false;
    }
  }
  return true;
}
