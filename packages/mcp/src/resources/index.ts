export { LoadMcpResourceTool, type LoadMcpResourceToolOptions } from './load-mcp-resource-tool';
export { mcpPromptInstruction, type McpPromptArguments } from './mcp-prompt-instruction';
