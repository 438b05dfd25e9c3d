export { McpInvalidArgumentsError } from './mcp-invalid-arguments-error';
export { McpProtocolVersionError } from './mcp-protocol-version-error';
export { McpRequestError } from './mcp-request-error';
export { McpServerStartError } from './mcp-server-start-error';
export { McpTimeoutError } from './mcp-timeout-error';
export { McpToolNotFoundError } from './mcp-tool-not-found-error';
export { McpTransportClosedError } from './mcp-transport-closed-error';
