import type { AdkError } from '@adk/core';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';

import { errorFromRpc, parseFormattedRpcError, type FailedRequest } from './map-mcp-error';

/** One content block of an MCP result as the model sees it in the function response. */
export type McpResponseContent =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; mimeType: string; data: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; blob?: string }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string };

/** The function response of a successful MCP tool call. */
export interface McpToolResponse {
  [key: string]: unknown;
  /** The text blocks joined by newlines, when the result holds only text. */
  result?: string;
  /** Every block in order, when the result holds anything besides text. */
  content?: McpResponseContent[];
  /** The tool's `structuredContent`, as the server sent it (checked against its output schema). */
  structuredContent?: Record<string, unknown>;
}

function mapBlock(block: ContentBlock): McpResponseContent {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
    case 'audio':
      return { type: block.type, mimeType: block.mimeType, data: block.data };
    case 'resource': {
      const resource = block.resource;
      return {
        type: 'resource',
        uri: resource.uri,
        ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
        ...('text' in resource ? { text: resource.text } : { blob: resource.blob }),
      };
    }
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: block.uri,
        name: block.name,
        ...(block.mimeType === undefined ? {} : { mimeType: block.mimeType }),
        ...(block.description === undefined ? {} : { description: block.description }),
      };
  }
}

function joinText(blocks: ContentBlock[]): string | undefined {
  let text: string | undefined;
  for (const block of blocks) {
    if (block.type !== 'text') return undefined;
    text = text === undefined ? block.text : `${text}\n${block.text}`;
  }
  return text;
}

/**
 * The function response for an MCP `tools/call` result: text-only results as `{ result }`, any
 * other mix as `{ content }` (images and audio keep their base64 data and MIME type, resources
 * their URI and body), `structuredContent` beside either. An `isError` result becomes
 * `{ error: { code: 'MCP_TOOL_ERROR', message, content? } }`, which the model reads like any tool
 * error; a result that is the SDK's formatted protocol error (unknown tool, invalid arguments)
 * is returned as the typed error to throw instead.
 */
export function mapCallResult(
  result: CallToolResult,
  request: FailedRequest,
):
  | McpToolResponse
  | { error: { code: string; message: string; content?: McpResponseContent[] } }
  | AdkError {
  const blocks = result.content;
  const text = joinText(blocks);
  if (result.isError === true) {
    const formatted = text === undefined ? undefined : parseFormattedRpcError(text);
    if (formatted) return errorFromRpc(request, formatted.code, formatted.message);
    const message =
      text ??
      blocks
        .filter((block) => block.type === 'text')
        .map((block) => block.text)
        .join('\n');
    return {
      error: {
        code: 'MCP_TOOL_ERROR',
        message: message || `The MCP tool "${request.toolName ?? ''}" reported an error.`,
        ...(text === undefined && blocks.length > 0 ? { content: blocks.map(mapBlock) } : {}),
      },
    };
  }
  const response: McpToolResponse = {};
  if (text !== undefined) response.result = text;
  else if (blocks.length > 0) response.content = blocks.map(mapBlock);
  if (result.structuredContent !== undefined) response.structuredContent = result.structuredContent;
  return response;
}
