import type { Model, ModelProvider } from '@adk/core';

/**
 * A {@link ModelProvider} that is also callable: `provider('model-name')` is
 * `provider.languageModel('model-name')`.
 */
export interface CallableModelProvider<M extends Model = Model> extends ModelProvider {
  (modelName: string): M;
  languageModel(modelName: string): M;
}

/**
 * Builds a callable provider that creates each model once per name and then returns the same
 * instance.
 *
 * @example
 * ```ts
 * const acme = defineProvider({ id: 'acme', patterns: [/^acme-/], create: (name) => new AcmeModel(name) });
 * const model = acme('acme-1'); // same as acme.languageModel('acme-1')
 * ```
 */
export function defineProvider<M extends Model>(options: {
  id: string;
  patterns: ReadonlyArray<string | RegExp>;
  create: (modelName: string) => M;
}): CallableModelProvider<M> {
  const models = new Map<string, M>();
  const languageModel = (modelName: string): M => {
    let model = models.get(modelName);
    if (!model) {
      model = options.create(modelName);
      models.set(modelName, model);
    }
    return model;
  };
  const provider = (modelName: string) => languageModel(modelName);
  Object.defineProperties(provider, {
    id: { value: options.id, enumerable: true },
    patterns: { value: options.patterns, enumerable: true },
    languageModel: { value: languageModel, enumerable: true },
  });
  return provider as CallableModelProvider<M>;
}
