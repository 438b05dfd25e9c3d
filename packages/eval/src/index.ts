/**
 * Evaluation for ADK for TypeScript, compatible with Python ADK's eval files and metrics.
 */
export * from './errors';
export * from './schema';
export * from './formats';
export * from './metrics';
export * from './runner';
export * from './stores';
export * from './record';
export { evaluate, type EvaluateOptions } from './evaluate';
export { formatOutcomeTable, statusLabel } from './format-outcome';
