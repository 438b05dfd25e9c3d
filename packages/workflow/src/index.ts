/**
 * Graph workflows for ADK for TypeScript: `Workflow` (an agent), its nodes and edges, the
 * stored-output reader used to resume, task delegation, and the workflow diagnostics channels.
 */
export * from './diagnostics';
export * from './errors';
export * from './graph';
export * from './nodes';
export * from './runtime';
export * from './task';
