import {
  AdkError,
  type FunctionDeclaration,
  type JsonSchema,
  type Tool,
  type ToolContext,
} from '@adk/core';
import { CallToolResultSchema, type Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';

import { mapCallResult } from './map-call-result';
import type { McpConnection } from './mcp-connection';

/** Decides whether a call needs a human's confirmation first. */
export type McpConfirmationPredicate = (
  toolName: string,
  args: Record<string, unknown>,
  context: ToolContext,
) => boolean | Promise<boolean>;

/** Options of {@link McpTool}. */
export interface McpToolOptions {
  connection: McpConnection;
  /** The tool as the server listed it. */
  info: McpToolInfo;
  /** The name the model sees (the server's name, prefixed when the toolset has a prefix). */
  name: string;
  requireConfirmation?: boolean | McpConfirmationPredicate;
  /** Timeout of each call, in milliseconds (the connection's by default). */
  timeoutMs?: number;
}

/**
 * One tool of an MCP server as an ADK tool: its declaration is the server's name, description and
 * input schema, and `run` sends `tools/call` on the toolset's shared connection. Usually created
 * by `McpToolset`.
 */
export class McpTool implements Tool {
  readonly name: string;
  readonly description: string;
  /** The tool's name on the server. */
  readonly serverToolName: string;
  /**
   * Span attributes for `@adk/telemetry`: the server's name and transport, and the tool's name on
   * the server.
   */
  readonly telemetryAttributes: Readonly<Record<string, string>>;
  readonly #connection: McpConnection;
  readonly #declaration: FunctionDeclaration;
  readonly #requireConfirmation: boolean | McpConfirmationPredicate;
  readonly #timeoutMs: number | undefined;

  constructor(options: McpToolOptions) {
    const { info } = options;
    this.name = options.name;
    this.serverToolName = info.name;
    this.description = info.description ?? info.title ?? info.name;
    this.#connection = options.connection;
    this.#requireConfirmation = options.requireConfirmation ?? false;
    this.#timeoutMs = options.timeoutMs;
    const { $schema: _ignored, ...parameters } = info.inputSchema as JsonSchema & {
      $schema?: unknown;
    };
    this.#declaration = { name: this.name, description: this.description, parameters };
    this.telemetryAttributes = {
      'mcp.server.name': options.connection.serverName,
      'mcp.transport': options.connection.transportName,
      'mcp.tool.name': info.name,
    };
  }

  declaration(): FunctionDeclaration {
    return this.#declaration;
  }

  /**
   * Call the tool on the server (after the confirmation gate, when configured). Resolves to the
   * mapped result, or to `{ error }` when the tool reported `isError`.
   *
   * @throws McpToolNotFoundError, McpInvalidArgumentsError, McpTimeoutError,
   * McpTransportClosedError, McpServerStartError or McpRequestError; the flow turns them into an
   * error response the model sees.
   */
  async run(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    const gate = await this.#confirmationGate(args, context);
    if (gate !== undefined) return gate;
    const timeoutMs = this.#timeoutMs ?? this.#connection.timeoutMs;
    const operation = `tools/call "${this.serverToolName}"`;
    const result = await this.#connection.request(
      (client, options) =>
        client.callTool(
          { name: this.serverToolName, arguments: args },
          CallToolResultSchema,
          options,
        ),
      {
        operation,
        toolName: this.serverToolName,
        timeoutMs,
        signal: context.signal,
        context,
      },
    );
    const mapped = mapCallResult(result as Parameters<typeof mapCallResult>[0], {
      serverName: this.#connection.serverName,
      operation,
      toolName: this.serverToolName,
      timeoutMs,
    });
    if (AdkError.isInstance(mapped)) throw mapped;
    return mapped;
  }

  async #confirmationGate(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    if (this.#requireConfirmation === false) return undefined;
    const confirmation = context.toolConfirmation;
    if (confirmation) {
      if (confirmation.confirmed) return undefined;
      return {
        error: { code: 'TOOL_CALL_REJECTED', message: `The call to "${this.name}" was rejected.` },
      };
    }
    const required =
      this.#requireConfirmation === true ||
      (await this.#requireConfirmation(this.serverToolName, args, context));
    if (!required) return undefined;
    context.requestConfirmation({ hint: `Confirm the call to "${this.name}".`, payload: args });
    return {
      error: {
        code: 'CONFIRMATION_REQUIRED',
        message: `The call to "${this.name}" needs a human confirmation; it has been requested.`,
      },
    };
  }
}
