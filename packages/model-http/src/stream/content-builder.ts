import type { Content, Part } from '@adk/core';

/**
 * Builds the final aggregated `Content` of a streamed response from its deltas. Adjacent text
 * deltas of the same kind (answer or thought) merge into one part; any other part starts a new
 * one, so the order the model produced is kept.
 *
 * @example
 * ```ts
 * const builder = new ContentBuilder();
 * builder.appendText('Hel'); builder.appendText('lo');
 * builder.addPart({ functionCall: { id: 'c1', name: 'f', args: {} } });
 * builder.build(); // { role: 'model', parts: [{ text: 'Hello' }, { functionCall: ... }] }
 * ```
 */
export class ContentBuilder {
  private readonly parts: Part[] = [];
  private openText: Part | undefined;

  /** Appends a text delta; `thought` marks reasoning text. */
  appendText(text: string, options: { thought?: boolean; thoughtSignature?: string } = {}): void {
    const thought = options.thought === true;
    const open = this.openText;
    if (open && (open.thought === true) === thought && !open.thoughtSignature) {
      open.text = (open.text ?? '') + text;
      if (options.thoughtSignature) open.thoughtSignature = options.thoughtSignature;
      return;
    }
    const part: Part = { text };
    if (thought) part.thought = true;
    if (options.thoughtSignature) part.thoughtSignature = options.thoughtSignature;
    this.parts.push(part);
    this.openText = part;
  }

  /** Attaches a signature to the last text part (Anthropic sends it after the thinking text). */
  signLastText(signature: string): void {
    if (this.openText) this.openText.thoughtSignature = signature;
  }

  /** Appends a non-text part (function call, inline data...). */
  addPart(part: Part): void {
    this.parts.push(part);
    this.openText = undefined;
  }

  /** True when nothing was added. */
  get isEmpty(): boolean {
    return this.parts.length === 0;
  }

  /** The aggregated content, or undefined when the response had no parts. */
  build(): Content | undefined {
    const parts = this.parts.filter((part) => part.text !== '' || part.thoughtSignature);
    return parts.length === 0 ? undefined : { role: 'model', parts };
  }
}
