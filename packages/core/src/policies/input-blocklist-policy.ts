import { getText } from '../content';
import type { InputDecision, InputFilterRequest, Policy } from './policy';
import { reject } from './policy';

/** Options of {@link InputBlocklistPolicy}. */
export interface InputBlocklistOptions {
  /** Messages matching any of these are rejected. Strings match case-insensitively. */
  patterns: readonly (string | RegExp)[];
  /** Reason shown to the user; default `This request is not allowed.` */
  reason?: string;
}

/**
 * Rejects user messages whose text matches a pattern, before any agent or model sees them. The run
 * ends with an `INPUT_REJECTED` error event carrying the reason, and the rejected message is kept
 * out of every later model request.
 *
 * @example
 * ```ts
 * new InputBlocklistPolicy({ patterns: [/ignore (all )?previous instructions/i] });
 * ```
 */
export class InputBlocklistPolicy implements Policy {
  readonly name: string;
  readonly #options: InputBlocklistOptions;

  constructor(options: InputBlocklistOptions, name = 'input-blocklist') {
    this.#options = options;
    this.name = name;
  }

  filterInput(request: InputFilterRequest): InputDecision | undefined {
    const text = getText(request.content);
    const lower = text.toLowerCase();
    const matched = this.#options.patterns.some((pattern) =>
      typeof pattern === 'string'
        ? lower.includes(pattern.toLowerCase())
        : new RegExp(pattern.source, pattern.flags.replace('g', '')).test(text),
    );
    return matched ? reject(this.#options.reason ?? 'This request is not allowed.') : undefined;
  }
}
