/**
 * `@adk/a2a`: the Agent-to-Agent (A2A) protocol for ADK for TypeScript. Serve any agent as an A2A
 * server ({@link createA2aServer}), call remote A2A agents ({@link A2aClient}) and use them as
 * local sub-agents or tools ({@link RemoteA2aAgent}).
 */
export * from './agents';
export * from './client';
export * from './convert';
export * from './errors';
export * from './server';

// The A2A 1.0 data types and enums, from the official SDK, for convenience.
export {
  Role,
  TaskState,
  type AgentCard,
  type Artifact,
  type Message,
  type Part as A2aPart,
  type StreamResponse,
  type Task,
} from '@a2a-js/sdk';
