import type { Part } from '../content';
import type { LlmResponse } from './llm-response';

/**
 * Builds the final response of a streamed model call from its delta chunks, for providers that
 * implement the streaming contract of {@link LlmResponse}.
 *
 * Consecutive text deltas are joined into one part (thought text separately from answer text);
 * other parts (function calls, inline data) are kept in arrival order. The usage, finish reason,
 * error fields and model version of the latest chunk that carries them win. The final response
 * never holds an empty `parts` array: when nothing was streamed it has no `content`.
 *
 * @example
 * ```ts
 * const aggregator = new StreamAggregator();
 * for await (const delta of deltas) { aggregator.add(delta); yield { ...delta, partial: true }; }
 * yield aggregator.final();
 * ```
 */
export class StreamAggregator {
  private readonly parts: Part[] = [];
  private role: string | undefined;
  private last: Omit<LlmResponse, 'content' | 'partial'> = {};

  /** Add one delta chunk. */
  add(chunk: LlmResponse): void {
    if (chunk.content) {
      this.role ??= chunk.content.role;
      for (const part of chunk.content.parts) this.addPart(part);
    }
    const { content: _content, partial: _partial, ...rest } = chunk;
    for (const key of Object.keys(rest) as (keyof typeof rest)[]) {
      if (rest[key] !== undefined) (this.last as Record<string, unknown>)[key] = rest[key];
    }
  }

  /** True when at least one part was received. */
  get hasContent(): boolean {
    return this.parts.length > 0;
  }

  /** The aggregated, non-partial response. */
  final(): LlmResponse {
    const response: LlmResponse = { ...this.last, partial: false };
    if (this.parts.length > 0) {
      response.content = {
        role: this.role ?? 'model',
        parts: this.parts.map((part) => ({ ...part })),
      };
    }
    response.turnComplete ??= true;
    return response;
  }

  private addPart(part: Part): void {
    const previous = this.parts[this.parts.length - 1];
    const isText = part.text !== undefined && !part.functionCall && !part.functionResponse;
    if (
      isText &&
      previous?.text !== undefined &&
      !previous.functionCall &&
      Boolean(previous.thought) === Boolean(part.thought)
    ) {
      previous.text += part.text;
      if (part.thoughtSignature) previous.thoughtSignature = part.thoughtSignature;
      return;
    }
    this.parts.push({ ...part });
  }
}
