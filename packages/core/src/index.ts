/**
 * ADK for TypeScript core. Every folder lists its public names in its own `index.ts`; this file
 * re-exports them.
 */
export * from './agents';
export * from './app';
export * from './artifacts';
export * from './auth';
export * from './callbacks';
export * from './compression';
export * from './content';
export * from './context';
export type { AgentInfo, Invocation } from './context/invocation';
export * from './diagnostics';
export * from './errors';
export * from './events';
export * from './flow';
export * from './history/index';
export * from './instructions';
export * from './invocation';
export * from './live';
export * from './memory';
export * from './models';
export * from './planners';
export * from './plugins';
export * from './policies';
export * from './runner';
export * from './sessions';
export * from './tools';
