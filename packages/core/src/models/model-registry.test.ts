import { describe, expect, it } from 'vitest';

import { ModelNotFoundError } from '../errors/model-not-found-error';
import type { Model, ModelProvider } from './model';
import { ModelRegistry } from './model-registry';

function provider(
  id: string,
  patterns: (string | RegExp)[],
  created: string[] = [],
): ModelProvider {
  return {
    id,
    patterns,
    languageModel(name: string): Model {
      created.push(name);
      return {
        name,
        async *generate() {
          yield { content: { role: 'model', parts: [{ text: name }] } };
        },
      };
    },
  };
}

describe('ModelRegistry', () => {
  it('resolves names by exact name, glob and regular expression', () => {
    const registry = new ModelRegistry();
    registry.register(provider('gemini', ['gemini-*']));
    registry.register(provider('anthropic', [/^claude-/g]));
    registry.register(provider('local', ['my-model']));
    expect(registry.resolve('gemini-2.5-flash').name).toBe('gemini-2.5-flash');
    expect(registry.resolve('claude-sonnet-4-5').name).toBe('claude-sonnet-4-5');
    // A global regexp is stateless here: a second test still matches.
    expect(registry.has('claude-haiku')).toBe(true);
    expect(registry.has('claude-haiku')).toBe(true);
    expect(registry.resolve('my-model').name).toBe('my-model');
    expect(registry.has('my-model-2')).toBe(false);
    // Glob metacharacters other than * are literal.
    expect(registry.has('geminiX2')).toBe(false);
  });

  it('caches one instance per name', () => {
    const created: string[] = [];
    const registry = new ModelRegistry();
    registry.register(provider('gemini', ['gemini-*'], created));
    const a = registry.resolve('gemini-a');
    expect(registry.resolve('gemini-a')).toBe(a);
    registry.resolve('gemini-b');
    expect(created).toEqual(['gemini-a', 'gemini-b']);
  });

  it('lets the provider registered last win, and replaces a provider with the same id', () => {
    const first: string[] = [];
    const second: string[] = [];
    const registry = new ModelRegistry();
    registry.register(provider('openai', ['*'], first));
    registry.register(provider('custom', ['gpt-*'], second));
    registry.resolve('gpt-4o');
    registry.resolve('other');
    expect(second).toEqual(['gpt-4o']);
    expect(first).toEqual(['other']);
    registry.register(provider('custom', ['nothing'], []));
    expect(registry.patterns).toEqual(['* (openai)', 'nothing (custom)']);
    expect(registry.unregister('custom')).toBe(true);
    expect(registry.unregister('custom')).toBe(false);
  });

  it('throws ModelNotFoundError listing what is registered', () => {
    const registry = new ModelRegistry();
    registry.register(provider('gemini', ['gemini-*']));
    registry.register(provider('anthropic', [/^claude-/]));
    try {
      registry.resolve('gpt-4o');
      expect.unreachable();
    } catch (error) {
      expect(ModelNotFoundError.isInstance(error)).toBe(true);
      const typed = error as ModelNotFoundError;
      expect(typed.modelName).toBe('gpt-4o');
      expect(typed.registeredPatterns).toEqual(['gemini-* (gemini)', '/^claude-/ (anthropic)']);
      expect(typed.message).toContain('gemini-* (gemini), /^claude-/ (anthropic)');
    }
    expect(() => new ModelRegistry().resolve('x')).toThrow('(none)');
  });
});
