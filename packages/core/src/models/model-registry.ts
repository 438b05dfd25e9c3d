import { ModelNotFoundError } from '../errors/model-not-found-error';
import type { Model, ModelProvider } from './model';

/**
 * Maps model names to the providers that serve them, so agents can name their model with a string
 * (`model: 'gemini-2.5-flash'`).
 *
 * A provider's `patterns` are exact names, globs with `*` (`gemini-*`) or regular expressions. When
 * several providers match, the one registered **last** wins, so an application can override a
 * default. Resolved models are cached per name: resolving the same name twice returns the same
 * instance (no per-call construction cost).
 *
 * @example
 * ```ts
 * const registry = new ModelRegistry();
 * registry.register(createGemini({ apiKey }));
 * const model = registry.resolve('gemini-2.5-flash');
 * ```
 */
export class ModelRegistry {
  private readonly providers: { provider: ModelProvider; matchers: RegExp[] }[] = [];
  private readonly cache = new Map<string, Model>();

  /** Register a provider. A provider with the same `id` replaces the earlier one. */
  register(provider: ModelProvider): void {
    const existing = this.providers.findIndex((entry) => entry.provider.id === provider.id);
    if (existing >= 0) this.providers.splice(existing, 1);
    this.providers.push({ provider, matchers: provider.patterns.map(toRegExp) });
    this.cache.clear();
  }

  /** Remove the provider with this id; returns whether one was registered. */
  unregister(providerId: string): boolean {
    const index = this.providers.findIndex((entry) => entry.provider.id === providerId);
    if (index < 0) return false;
    this.providers.splice(index, 1);
    this.cache.clear();
    return true;
  }

  /** True when some registered provider serves `name`. */
  has(name: string): boolean {
    return this.cache.has(name) || this.findProvider(name) !== undefined;
  }

  /** Every registered pattern, as shown in {@link ModelNotFoundError}. */
  get patterns(): string[] {
    return this.providers.flatMap(({ provider }) =>
      provider.patterns.map((pattern) => `${String(pattern)} (${provider.id})`),
    );
  }

  /**
   * The model for `name`, created by the matching provider on first use and cached.
   *
   * @throws ModelNotFoundError listing every registered pattern when no provider matches.
   */
  resolve(name: string): Model {
    const cached = this.cache.get(name);
    if (cached) return cached;
    const provider = this.findProvider(name);
    if (!provider) {
      throw new ModelNotFoundError({ modelName: name, registeredPatterns: this.patterns });
    }
    const model = provider.languageModel(name);
    this.cache.set(name, model);
    return model;
  }

  private findProvider(name: string): ModelProvider | undefined {
    for (let index = this.providers.length - 1; index >= 0; index--) {
      const entry = this.providers[index]!;
      if (entry.matchers.some((matcher) => matcher.test(name))) return entry.provider;
    }
    return undefined;
  }
}

function toRegExp(pattern: string | RegExp): RegExp {
  if (pattern instanceof RegExp) {
    // A global or sticky regexp keeps state between `test` calls: use a stateless copy.
    return pattern.global || pattern.sticky
      ? new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''))
      : pattern;
  }
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/**
 * The registry the Runner uses when none is given. Provider packages offer a helper to register
 * themselves here (for example `registerGemini()`); tests usually pass a `Model` instance instead.
 */
export const defaultModelRegistry: ModelRegistry = new ModelRegistry();
