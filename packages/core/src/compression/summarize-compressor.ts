import type { Content } from '../content';
import { getText } from '../content';
import { ContextCompressionError, InvalidArgumentError } from '../errors';
import { describeCause } from '../errors/describe-cause';
import type { EventCompaction } from '../events';
import { isFrameworkFunction, type HistoryItem } from '../history/index';
import type { LlmRequest, Model } from '../models';
import type { CompactionRequest, ContextCompressor } from './context-compressor';
import { estimateItemTokens } from './estimate-tokens';
import { compactionOf, currentHistory, isPositiveInteger, safeCut } from './plan-compaction';
import { visibleCount } from './window-options';

/** Options of {@link SummarizeCompressor}. */
export interface SummarizeOptions {
  /** The model that writes summaries: an instance, or a name resolved through the runner's registry. */
  model: Model | string;
  /** Summarise when the agent sees more than this many messages. */
  maxEvents?: number;
  /** Summarise when the estimated history exceeds this many tokens. */
  maxTokens?: number;
  /** Recent messages left as they are; default 4. */
  keepEvents?: number;
  /** System instruction of the summarising call; a sensible default is provided. */
  instruction?: string;
}

/** Default system instruction of the summarising call. */
export const DEFAULT_SUMMARY_INSTRUCTION =
  'You condense conversations between a user and AI agents. Write a concise summary of the transcript ' +
  'you are given that keeps every fact, decision, open question and tool result needed to continue the ' +
  'conversation. Reply with the summary only.';

function describeItem(item: HistoryItem): string[] {
  if (item.kind === 'compaction') {
    const text = getText(item.compaction.compactedContent);
    return text === '' ? [] : [`Summary of earlier conversation: ${text}`];
  }
  const { author } = item.event;
  const lines: string[] = [];
  for (const part of item.event.content?.parts ?? []) {
    if (part.thought) continue;
    if (part.text) lines.push(`${author}: ${part.text}`);
    const call = part.functionCall;
    if (call && !isFrameworkFunction(call.name))
      lines.push(`${author} called ${call.name}(${JSON.stringify(call.args ?? {})})`);
    const response = part.functionResponse;
    if (response && !isFrameworkFunction(response.name)) {
      lines.push(`${response.name} returned ${JSON.stringify(response.response)}`);
    }
  }
  return lines;
}

/** A plain-text transcript of history items, one line per message, call or result. */
export function transcriptOf(items: readonly HistoryItem[]): string {
  return items.flatMap(describeItem).join('\n');
}

/**
 * Replaces older history with a summary written by a model once the history grows past
 * `maxEvents` messages or `maxTokens` estimated tokens, keeping the `keepEvents` most recent
 * messages as they are. Earlier summaries are folded into the new one. A failing or empty
 * summarising call throws {@link ContextCompressionError}, and the history is left untouched.
 *
 * @example
 * ```ts
 * new SummarizeCompressor({ model: 'gemini-2.5-flash', maxEvents: 30, keepEvents: 6 });
 * ```
 */
export class SummarizeCompressor implements ContextCompressor {
  readonly name = 'summarize';
  readonly #options: SummarizeOptions & { keepEvents: number };

  constructor(options: SummarizeOptions) {
    const keepEvents = options.keepEvents ?? 4;
    if (options.maxEvents === undefined && options.maxTokens === undefined) {
      throw new InvalidArgumentError({
        message: 'SummarizeCompressor needs maxEvents or maxTokens.',
        argument: 'maxEvents',
      });
    }
    for (const [key, value] of Object.entries({
      maxEvents: options.maxEvents,
      maxTokens: options.maxTokens,
      keepEvents,
    })) {
      if (value !== undefined && !isPositiveInteger(value)) {
        throw new InvalidArgumentError({
          message: `SummarizeCompressor: ${key} must be a positive integer.`,
          argument: key,
        });
      }
    }
    this.#options = { ...options, keepEvents };
  }

  async compact(request: CompactionRequest): Promise<EventCompaction | undefined> {
    const items = currentHistory(request);
    const { maxEvents, maxTokens, keepEvents } = this.#options;
    const overCount = maxEvents !== undefined && visibleCount(items) > maxEvents;
    const overTokens =
      maxTokens !== undefined &&
      items.reduce((sum, item) => sum + estimateItemTokens(item), 0) > maxTokens;
    if (!overCount && !overTokens) return undefined;
    const cut = safeCut(items, items.length - keepEvents);
    if (cut === 0) return undefined;
    const compacted = items.slice(0, cut);
    const summary = await this.#summarise(transcriptOf(compacted), request);
    return compactionOf(compacted, summary);
  }

  async #summarise(transcript: string, request: CompactionRequest): Promise<Content> {
    const model = this.#model(request);
    const llmRequest: LlmRequest = {
      model: model.name,
      systemInstruction: this.#options.instruction ?? DEFAULT_SUMMARY_INSTRUCTION,
      contents: [{ role: 'user', parts: [{ text: transcript }] }],
      config: {},
    };
    let text = '';
    try {
      for await (const response of model.generate(llmRequest, {
        stream: false,
        signal: request.signal,
      })) {
        if (response.partial) continue;
        if (response.errorCode !== undefined) {
          throw new ContextCompressionError({
            compressor: this.name,
            message:
              `the model answered with error ${response.errorCode}: ${response.errorMessage ?? ''}`.trim(),
          });
        }
        text = getText(response.content);
      }
    } catch (error) {
      if (ContextCompressionError.isInstance(error)) throw error;
      throw new ContextCompressionError({
        compressor: this.name,
        message: `the summarising model call failed: ${describeCause(error)}`,
        cause: error,
      });
    }
    if (text.trim() === '') {
      throw new ContextCompressionError({
        compressor: this.name,
        message: 'the model returned an empty summary.',
      });
    }
    return { role: 'user', parts: [{ text: text.trim() }] };
  }

  #model(request: CompactionRequest): Model {
    const { model } = this.#options;
    if (typeof model !== 'string') return model;
    if (!request.resolveModel) {
      throw new ContextCompressionError({
        compressor: this.name,
        message: `no model registry to resolve "${model}".`,
      });
    }
    return request.resolveModel(model);
  }
}
