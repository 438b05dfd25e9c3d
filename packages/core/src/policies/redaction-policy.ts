import type { Content, Part } from '../content';
import type { InputDecision, InputFilterRequest, OutputFilterRequest, Policy } from './policy';
import { rewrite } from './policy';

/** Options of {@link RedactionPolicy}. */
export interface RedactionOptions {
  /** What to hide. Strings match literally; regular expressions are applied globally. */
  patterns: readonly (string | RegExp)[];
  /** Replacement text; default `[REDACTED]`. */
  replacement?: string;
  /** Redact model output (default), the user's input (rewritten before it is stored), or both. */
  applyTo?: 'output' | 'input' | 'both';
}

function globalPattern(pattern: string | RegExp): RegExp {
  if (typeof pattern === 'string')
    return new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g');
  return new RegExp(
    pattern.source,
    pattern.flags.includes('g') ? pattern.flags : pattern.flags + 'g',
  );
}

/**
 * Redacts text matching patterns from model output (what callers receive and what is stored) and,
 * optionally, from user input. Thoughts are redacted too; other parts are left as they are.
 * Streamed chunks are redacted one by one, so a secret split across two chunks can show in the
 * chunks, never in the stored final event.
 *
 * @example
 * ```ts
 * new RedactionPolicy({ patterns: [/\b\d{16}\b/], replacement: '[card]' });
 * ```
 */
export class RedactionPolicy implements Policy {
  readonly name: string;
  readonly #patterns: RegExp[];
  readonly #replacement: string;
  readonly #applyTo: 'output' | 'input' | 'both';

  constructor(options: RedactionOptions, name = 'redaction') {
    this.name = name;
    this.#patterns = options.patterns.map(globalPattern);
    this.#replacement = options.replacement ?? '[REDACTED]';
    this.#applyTo = options.applyTo ?? 'output';
  }

  filterOutput(request: OutputFilterRequest): Content | undefined {
    if (this.#applyTo === 'input') return undefined;
    return this.#redact(request.content);
  }

  filterInput(request: InputFilterRequest): InputDecision | undefined {
    if (this.#applyTo === 'output') return undefined;
    const content = this.#redact(request.content);
    return content ? rewrite(content) : undefined;
  }

  /** The redacted content, or `undefined` when nothing matched. */
  #redact(content: Content): Content | undefined {
    let changed = false;
    const parts = content.parts.map((part): Part => {
      if (part.text === undefined) return part;
      let text = part.text;
      for (const pattern of this.#patterns) text = text.replace(pattern, this.#replacement);
      if (text === part.text) return part;
      changed = true;
      return { ...part, text };
    });
    return changed ? { ...content, parts } : undefined;
  }
}
