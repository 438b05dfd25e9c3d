/**
 * Artifact services for ADK for TypeScript: versioned files that agents and tools save and load.
 */
export * from './in-memory';
export * from './errors';
export * from './file';
export * from './sql';
export * from './tools';
