import { defaultModelRegistry, type BaseAgent, type Model, type ModelRegistry } from '@adk/core';

/**
 * Replace the model of every agent in the tree that names its own (`LlmAgent.model`) with
 * `wrap(name, resolve)`: `name` is the model's name, `resolve` gives the real model (a name is
 * resolved through `registry` only when called). Agents inheriting their parent's model inherit
 * the wrapped one. Used by `adk eval --record/--replay` and the vitest helper. It changes the
 * agents in place and returns the function that puts their own models back (`evaluate` calls it
 * when the eval ends, so an agent module loaded once serves later runs unwrapped).
 */
export function wrapAgentModels(
  root: BaseAgent,
  wrap: (name: string, resolve: () => Model) => Model,
  registry: ModelRegistry = defaultModelRegistry,
): () => void {
  const seen = new Set<BaseAgent>();
  const restores: Array<() => void> = [];
  const visit = (agent: BaseAgent) => {
    if (seen.has(agent)) return;
    seen.add(agent);
    const own = (agent as { model?: unknown }).model;
    if (typeof own === 'string' || (typeof own === 'object' && own !== null && 'generate' in own)) {
      const name = typeof own === 'string' ? own : (own as Model).name;
      const resolve = () => (typeof own === 'string' ? registry.resolve(own) : (own as Model));
      const previous = Object.getOwnPropertyDescriptor(agent, 'model');
      restores.push(() => {
        if (previous) Object.defineProperty(agent, 'model', previous);
        else delete (agent as { model?: unknown }).model;
        // Resolve the restored model afresh.
        if ('resolvedModel' in agent)
          (agent as { resolvedModel?: unknown }).resolvedModel = undefined;
      });
      Object.defineProperty(agent, 'model', {
        value: wrap(name, resolve),
        configurable: true,
        writable: false,
      });
      // Drop the agent's cached resolution of its previous model.
      if ('resolvedModel' in agent)
        Object.defineProperty(agent, 'resolvedModel', { value: undefined, writable: true });
    }
    for (const child of agent.subAgents) visit(child);
  };
  visit(root);
  return () => {
    for (const restore of restores.reverse()) restore();
  };
}
