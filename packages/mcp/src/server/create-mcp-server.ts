import { InMemorySessionService, Runner, type BaseAgent, type Tool } from '@adk/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool as McpToolInfo,
} from '@modelcontextprotocol/sdk/types.js';

import { callAgent } from './agent-call';
import type { McpServeCommonOptions, McpServeTarget } from './serve-options';
import { callTool } from './tool-call';

const VERSION = '0.1.0';

function isRunner(target: McpServeTarget): target is Runner {
  return target instanceof Runner;
}

/** Letters, digits, `_` and `-` only, as MCP clients expect of tool names. */
function toolNameOf(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_') || 'agent';
}

/**
 * What one served target answers: its tool list and the handler of a call. Built once per
 * `serveAsMcp`, shared by every MCP session (each session gets its own SDK `Server`).
 */
export interface McpServeHandler {
  readonly serverName: string;
  readonly tools: McpToolInfo[];
  call(
    name: string,
    args: Record<string, unknown>,
    session: { sessionId: string; signal: AbortSignal },
  ): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Build the handler of `target`: an agent (or Runner) as one tool, or a list of ADK tools. */
export function createServeHandler(
  target: McpServeTarget,
  options: McpServeCommonOptions,
): McpServeHandler {
  const userId = options.userId ?? 'mcp-user';
  if (Array.isArray(target)) {
    const tools = target as readonly Tool[];
    const sessionService = options.sessionService ?? new InMemorySessionService();
    const appName = options.appName ?? 'mcp';
    const byName = new Map<string, Tool>();
    const listed: McpToolInfo[] = [];
    for (const tool of tools) {
      const declaration = tool.declaration();
      if (!declaration) continue;
      byName.set(declaration.name, tool);
      const parameters = declaration.parameters as McpToolInfo['inputSchema'] | undefined;
      listed.push({
        name: declaration.name,
        description: declaration.description,
        inputSchema:
          parameters?.type === 'object' ? parameters : { type: 'object', properties: {} },
      });
    }
    return {
      serverName: options.name ?? 'adk-tools',
      tools: listed,
      call: async (name, args, session) => {
        const tool = byName.get(name);
        if (!tool) return unknownTool(name);
        return callTool(tool, args, {
          sessionService,
          appName,
          userId,
          sessionId: session.sessionId,
          signal: session.signal,
        });
      },
      close: async () => undefined,
    };
  }
  const runner = isRunner(target as McpServeTarget)
    ? (target as Runner)
    : new Runner({
        appName: options.appName ?? (target as BaseAgent).name,
        agent: target as BaseAgent,
        autoCreateSession: true,
        ...(options.sessionService ? { sessionService: options.sessionService } : {}),
        ...(options.artifactService ? { artifactService: options.artifactService } : {}),
        ...(options.memoryService ? { memoryService: options.memoryService } : {}),
      });
  const agent = runner.agent;
  const toolName = toolNameOf(agent.name);
  return {
    serverName: options.name ?? agent.name,
    tools: [
      {
        name: toolName,
        description:
          agent.description ||
          `Talk to the agent "${agent.name}". Calls in one MCP session continue one conversation.`,
        inputSchema: {
          type: 'object',
          properties: { message: { type: 'string', description: 'Your message to the agent.' } },
          required: ['message'],
        },
      },
    ],
    call: async (name, args, session) => {
      if (name !== toolName) return unknownTool(name);
      if (typeof args.message !== 'string') {
        return {
          isError: true,
          content: [{ type: 'text', text: 'The "message" argument must be a string.' }],
        };
      }
      return callAgent(runner, {
        userId,
        sessionId: session.sessionId,
        message: args.message,
        signal: session.signal,
      });
    },
    // A Runner given by the caller is theirs to close.
    close: async () => {
      if (!isRunner(target as McpServeTarget)) await runner.close();
    },
  };
}

function unknownTool(name: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `Unknown tool "${name}".` }] };
}

/**
 * A new SDK `Server` answering `tools/list` and `tools/call` with `handler`. `sessionIdOf` names
 * the ADK session of a request (the MCP session's own id over HTTP, one id per process over
 * stdio).
 */
export function createMcpServer(
  handler: McpServeHandler,
  options: { version?: string; sessionIdOf: (mcpSessionId: string | undefined) => string },
): Server {
  const server = new Server(
    { name: handler.serverName, version: options.version ?? VERSION },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: handler.tools }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    handler.call(request.params.name, request.params.arguments ?? {}, {
      sessionId: options.sessionIdOf(extra.sessionId),
      signal: extra.signal,
    }),
  );
  return server;
}
