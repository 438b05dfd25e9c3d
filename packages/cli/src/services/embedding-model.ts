import { pathToFileURL } from 'node:url';

import type { EmbeddingModel } from '@adk/core';

import { UsageError } from '../errors';
import { resolveInstalled } from '../register-installed-providers';

/** Which provider package serves an embedding model name, and its factory export. */
const EMBEDDING_PROVIDERS: readonly { pattern: RegExp; packageName: string; factory: string }[] = [
  {
    pattern: /^(gemini-embedding-|text-embedding-00|embedding-00)/,
    packageName: '@adk/models-gemini',
    factory: 'createGemini',
  },
  {
    pattern: /^text-embedding-(3-|ada-)/,
    packageName: '@adk/models-openai',
    factory: 'createOpenAI',
  },
];

interface EmbeddingProvider {
  embeddingModel(name: string, settings?: { dimensions?: number }): EmbeddingModel;
}

/**
 * The embedding model named on the command line (`--memory_embedding_model`), from the provider
 * package installed next to the agents (`gemini-embedding-001`, `text-embedding-004`:
 * `@adk/models-gemini`; `text-embedding-3-small|large`, `text-embedding-ada-002`:
 * `@adk/models-openai`), with the provider's default settings (its key from the environment). A
 * `@N` suffix asks for vectors of N dimensions (`gemini-embedding-001@768`).
 *
 * @throws {UsageError} for a name no provider serves, or a provider that is not installed.
 */
export async function resolveEmbeddingModel(
  spec: string,
  fromDir: string,
): Promise<EmbeddingModel> {
  const [name = '', size] = spec.split('@');
  const dimensions = size === undefined ? undefined : Number(size);
  if (dimensions !== undefined && !(Number.isInteger(dimensions) && dimensions > 0))
    throw new UsageError(
      `Invalid --memory_embedding_model "${spec}": @N must be a positive integer`,
    );
  const provider = EMBEDDING_PROVIDERS.find((p) => p.pattern.test(name));
  if (!provider) {
    throw new UsageError(
      `Unknown --memory_embedding_model "${name}": use gemini-embedding-001, text-embedding-004 (@adk/models-gemini), text-embedding-3-small or -large (@adk/models-openai)`,
    );
  }
  const file = resolveInstalled(provider.packageName, fromDir);
  if (!file) {
    throw new UsageError(
      `--memory_embedding_model ${name} needs ${provider.packageName}: install it next to the agents`,
    );
  }
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const create = module[provider.factory] as () => EmbeddingProvider;
  return create().embeddingModel(name, dimensions === undefined ? {} : { dimensions });
}
