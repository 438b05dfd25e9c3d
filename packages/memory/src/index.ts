/**
 * Memory services for ADK for TypeScript: remember past sessions and search them, plus the
 * `load_memory` and `preload_memory` tools.
 */
export * from './errors';
export * from './extraction';
export * from './in-memory';
export * from './semantic';
export * from './sql';
export * from './tools';
export * from './plugins';
