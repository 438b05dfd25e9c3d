import { randomUUID } from 'node:crypto';

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { createMcpServer, createServeHandler } from './create-mcp-server';
import { serveHttp } from './serve-http';
import type { McpServeOptions, McpServeTarget, McpServing } from './serve-options';

/**
 * Expose an ADK agent, or a list of ADK tools, as an MCP server, so Claude Desktop, MCP Inspector
 * or any MCP client can call it.
 *
 * - An agent (or a `Runner`) becomes one tool named after the agent, taking `{ message }` and
 *   answering with the agent's final text. All calls of one MCP session continue one ADK session
 *   (`mcp-<MCP session id>` over HTTP; one session per process over stdio) in the configured
 *   session service, so a persistent service keeps the conversation.
 * - A list of tools is served as it is: each tool's declaration is its MCP tool, and state the
 *   tools write is stored in the MCP session's ADK session.
 *
 * @example
 * ```ts
 * // agent-server.ts: `npx tsx agent-server.ts` is an MCP server over stdio.
 * await serveAsMcp(rootAgent, { transport: 'stdio' });
 * ```
 */
export async function serveAsMcp(
  target: McpServeTarget,
  options: McpServeOptions,
): Promise<McpServing> {
  const handler = createServeHandler(target, options);
  const version = options.version ?? '0.1.0';
  if (options.transport === 'stdio') {
    const sessionId = `mcp-${randomUUID()}`;
    const server = createMcpServer(handler, { version, sessionIdOf: () => sessionId });
    await server.connect(new StdioServerTransport());
    return {
      url: undefined,
      async close() {
        await server.close();
        await handler.close();
      },
    };
  }
  return serveHttp(handler, { ...options, version });
}
