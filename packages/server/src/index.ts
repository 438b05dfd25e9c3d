/**
 * `@adk/server`: the ADK API server (the routes of the official ADK API server, the ADK web UI's
 * backend) on Hono.
 */
export * from './a2a';
export * from './app';
export * from './errors';
export * from './graph';
export type { AppInfo } from './routes';
export * from './run';
export * from './traces';
export { version } from './version';
export { isWebUiBuilt, webUiDir, type WebUiOptions } from './web-ui';
export { runAgentRequestSchema, type RunAgentRequest } from './http/schemas';
export { type ErrorBody } from './http/http-error';
export type { TimestampUnit } from './http/wire-time';
export type { ServerJob, ServerJobStore } from './routes/job-routes';
export * from './live';
