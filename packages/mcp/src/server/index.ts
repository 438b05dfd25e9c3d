export { createMcpServer, createServeHandler, type McpServeHandler } from './create-mcp-server';
export { serveAsMcp } from './serve-as-mcp';
export type {
  McpServeCommonOptions,
  McpServeHttpOptions,
  McpServeOptions,
  McpServeStdioOptions,
  McpServeTarget,
  McpServing,
} from './serve-options';
