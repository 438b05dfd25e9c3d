/**
 * `@adk/mcp`: Model Context Protocol for ADK for TypeScript, on the official
 * `@modelcontextprotocol/sdk`.
 */
export * from './client';
export * from './errors';
export * from './resources';
export * from './server';
