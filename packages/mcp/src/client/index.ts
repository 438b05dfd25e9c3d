export type {
  McpConnectionParams,
  McpHeaders,
  SseConnectionParams,
  StdioConnectionParams,
  StreamableHttpConnectionParams,
} from './connection-params';
export {
  DEFAULT_MCP_CONNECT_TIMEOUT_MS,
  DEFAULT_MCP_TIMEOUT_MS,
  McpConnection,
  type McpConnectionOptions,
  type McpRequestOptions,
} from './mcp-connection';
export type { McpResponseContent, McpToolResponse } from './map-call-result';
export { McpTool, type McpConfirmationPredicate, type McpToolOptions } from './mcp-tool';
export { McpToolset, type McpToolFilter, type McpToolsetOptions } from './mcp-toolset';
