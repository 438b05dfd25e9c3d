import { AdkError } from '@adk/core';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

import { McpInvalidArgumentsError } from '../errors/mcp-invalid-arguments-error';
import { McpRequestError } from '../errors/mcp-request-error';
import { McpTimeoutError } from '../errors/mcp-timeout-error';
import { McpToolNotFoundError } from '../errors/mcp-tool-not-found-error';
import { McpTransportClosedError } from '../errors/mcp-transport-closed-error';
import { ConnectionLostError } from './guard-responses';

/** What a failed request was doing, to name it in the typed error. */
export interface FailedRequest {
  serverName: string;
  /** e.g. `tools/call "echo"`. */
  operation: string;
  /** Set for `tools/call`. */
  toolName?: string;
  timeoutMs: number;
}

const TOOL_NOT_FOUND = /\b(tool|method)\b.*\bnot found\b|\bunknown tool\b/i;

/**
 * The typed error for a JSON-RPC error code and message, as an MCP server reports it either as a
 * JSON-RPC error or (servers built on the SDK's `McpServer`) as an `isError` result whose text is
 * the formatted `McpError` (`MCP error -32602: ...`).
 */
export function errorFromRpc(
  request: FailedRequest,
  code: number,
  message: string,
  cause?: unknown,
): AdkError {
  const { serverName, toolName, operation } = request;
  if (code === Number(ErrorCode.RequestTimeout)) {
    return new McpTimeoutError({ serverName, operation, timeoutMs: request.timeoutMs, cause });
  }
  if (code === Number(ErrorCode.ConnectionClosed)) {
    return new McpTransportClosedError({ serverName, operation, cause });
  }
  if (
    toolName !== undefined &&
    (code === Number(ErrorCode.InvalidParams) || code === Number(ErrorCode.MethodNotFound))
  ) {
    if (TOOL_NOT_FOUND.test(message))
      return new McpToolNotFoundError({ serverName, toolName, cause });
    if (code === Number(ErrorCode.InvalidParams)) {
      return new McpInvalidArgumentsError({ serverName, toolName, detail: message, cause });
    }
  }
  return new McpRequestError({ serverName, operation, detail: message, rpcCode: code, cause });
}

/** Any error of an SDK request turned into a typed ADK error (typed ADK errors pass through). */
export function mapMcpError(request: FailedRequest, error: unknown): AdkError {
  if (AdkError.isInstance(error)) return error;
  if (error instanceof McpError) return errorFromRpc(request, error.code, error.message, error);
  if (error instanceof ConnectionLostError) {
    const { serverName, operation } = request;
    return new McpTransportClosedError({ serverName, operation, cause: error });
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return new McpRequestError({
      serverName: request.serverName,
      operation: request.operation,
      detail: 'aborted by the run (the server was sent a cancellation)',
      cause: error,
    });
  }
  return new McpRequestError({
    serverName: request.serverName,
    operation: request.operation,
    detail: error instanceof Error ? error.message : String(error),
    cause: error,
  });
}

/** `MCP error -32602: Tool x not found` → `{ code: -32602, message }`, as the SDK formats errors. */
export function parseFormattedRpcError(
  text: string,
): { code: number; message: string } | undefined {
  const match = /^MCP error (-?\d+): ([\s\S]*)$/.exec(text);
  if (!match) return undefined;
  return { code: Number(match[1]), message: match[2] ?? '' };
}
