import {
  createEvent,
  createEventActions,
  InvocationToolContext,
  normalizeToolResult,
  toolErrorResponse,
  toStorableToolResponse,
  type SessionService,
  type Tool,
} from '@adk/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Where a tool called over MCP reads and writes its session. */
export interface ToolSessionAddress {
  sessionService: SessionService;
  appName: string;
  userId: string;
  sessionId: string;
  signal: AbortSignal;
}

let callCounter = 0;

/**
 * Run an ADK tool for an MCP `tools/call`, with a tool context on the MCP session's ADK session
 * (created on first use). State the tool writes is stored as an event of that session, so it
 * persists across calls. The result is the tool's response as JSON text and `structuredContent`;
 * a thrown error, an error response or a confirmation request is an `isError` result.
 */
export async function callTool(
  tool: Tool,
  args: Record<string, unknown>,
  address: ToolSessionAddress,
): Promise<CallToolResult> {
  const { sessionService, appName, userId, sessionId } = address;
  const session =
    (await sessionService.getSession({ appName, userId, sessionId })) ??
    (await sessionService.createSession({ appName, userId, sessionId }));
  callCounter += 1;
  const invocationId = `mcp-${Date.now().toString(36)}-${callCounter}`;
  const actions = createEventActions();
  const context = new InvocationToolContext(
    {
      invocationId,
      agent: { name: 'mcp' },
      session,
      branch: undefined,
      userContent: undefined,
      signal: address.signal,
    },
    actions,
    `${invocationId}-call`,
  );
  let response: Record<string, unknown>;
  try {
    response = toStorableToolResponse(
      tool.name,
      normalizeToolResult(await tool.run(args, context)),
    );
  } catch (error) {
    response = toolErrorResponse(tool.name, error);
  }
  if (Object.keys(actions.stateDelta).length > 0) {
    await sessionService.appendEvent({
      session,
      event: createEvent({
        invocationId,
        author: 'mcp',
        actions: { stateDelta: actions.stateDelta },
      }),
    });
  }
  const confirmationAsked = Object.keys(actions.requestedToolConfirmations).length > 0;
  const text = JSON.stringify(response);
  return {
    content: [{ type: 'text', text }],
    structuredContent: response,
    ...('error' in response || confirmationAsked ? { isError: true } : {}),
  };
}
