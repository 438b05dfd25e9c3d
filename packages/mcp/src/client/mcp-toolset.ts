import { basename } from 'node:path';

import type { ReadonlyContext, Tool, Toolset } from '@adk/core';
import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';

import type { McpConnectionParams } from './connection-params';
import { McpConnection } from './mcp-connection';
import { McpTool, type McpConfirmationPredicate } from './mcp-tool';
import { validateConnectionParams } from './validate-connection';

/** Which of the server's tools the agent gets: a list of names, or a predicate. */
export type McpToolFilter =
  readonly string[] | ((tool: McpToolInfo, context: ReadonlyContext) => boolean);

/** Options of {@link McpToolset}. */
export interface McpToolsetOptions {
  /** How to reach the server: stdio, Streamable HTTP or legacy SSE. */
  connection: McpConnectionParams;
  /**
   * Names the server in errors and telemetry, and is the toolset's name. Defaults to the
   * command's base name (stdio) or the URL's host.
   */
  name?: string;
  /** Keep only these tools (server names), or those the predicate accepts. */
  toolFilter?: McpToolFilter;
  /** Prefix of every tool name the model sees: `files` makes `read_file` `files_read_file`. */
  toolNamePrefix?: string;
  /**
   * Ask a human before running a call (core's confirmation pause): `true` for every tool, a list
   * of server tool names, or a predicate on the tool name and arguments.
   */
  requireConfirmation?: boolean | readonly string[] | McpConfirmationPredicate;
  /** Timeout of each tool call and request, in milliseconds (60 s by default). */
  timeoutMs?: number;
  /** Timeout of starting the server and the handshake, in milliseconds (30 s by default). */
  connectTimeoutMs?: number;
}

const LAUNCHERS = /^(npx|node|bunx|bun|uvx|pnpm|tsx|deno|python3?)(\.exe)?$/;

/**
 * A readable server name: the command, or for a launcher (`npx`, `node`, `uvx`...) the package or
 * script it starts (`npx -y @modelcontextprotocol/server-filesystem .` → `server-filesystem`).
 */
function defaultName(connection: McpConnectionParams): string {
  if (connection.transport !== 'stdio') return new URL(connection.url).host;
  const command = basename(connection.command);
  if (!LAUNCHERS.test(command)) return command;
  const target = connection.args?.find((arg) => !arg.startsWith('-'));
  if (target === undefined) return command;
  const inModules = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(target);
  return basename(inModules?.[1] ?? target).replace(/\.[cm]?[jt]s$/, '');
}

/**
 * The tools of an MCP server as a toolset of an agent.
 *
 * The session is opened on the first `getTools`, kept for every later call, turn and run, and
 * shared by concurrent calls; the tool list is cached and read again when the server sends
 * `notifications/tools/list_changed`. `runner.close()` closes it (a stdio server is stopped, and
 * one left running at process exit is killed).
 *
 * @example
 * ```ts
 * const files = new McpToolset({
 *   connection: {
 *     transport: 'stdio',
 *     command: 'npx',
 *     args: ['-y', '@modelcontextprotocol/server-filesystem', './sandbox'],
 *   },
 *   toolFilter: ['read_text_file', 'list_directory'],
 * });
 * const agent = new LlmAgent({ name: 'assistant', model: 'gemini-2.5-flash', tools: [files] });
 * ```
 */
export class McpToolset implements Toolset {
  readonly name: string;
  /** The shared connection (for resources, prompts and direct requests). */
  readonly connection: McpConnection;
  readonly #filter: McpToolFilter | undefined;
  readonly #prefix: string | undefined;
  readonly #confirmation: McpToolsetOptions['requireConfirmation'];
  readonly #timeoutMs: number | undefined;
  #tools: McpTool[] = [];
  #toolsGeneration = -1;
  #toolsSource: McpToolInfo[] | undefined;

  /** @throws InvalidArgumentError when the connection settings are incomplete or invalid. */
  constructor(options: McpToolsetOptions) {
    validateConnectionParams(options.connection);
    this.name = options.name ?? defaultName(options.connection);
    this.connection = new McpConnection({
      serverName: this.name,
      params: options.connection,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.connectTimeoutMs === undefined
        ? {}
        : { connectTimeoutMs: options.connectTimeoutMs }),
    });
    this.#filter = options.toolFilter;
    this.#prefix = options.toolNamePrefix;
    this.#confirmation = options.requireConfirmation;
    this.#timeoutMs = options.timeoutMs;
  }

  /**
   * The server's tools, filtered and named for the model. Opens the session on first use.
   * @throws McpServerStartError or McpProtocolVersionError when the server cannot be reached.
   */
  async getTools(context: ReadonlyContext): Promise<Tool[]> {
    const generation = this.connection.toolsGeneration;
    const listed = await this.connection.listTools(context);
    if (listed !== this.#toolsSource || generation !== this.#toolsGeneration) {
      this.#tools = listed.map((info) => this.#adapt(info));
      this.#toolsSource = listed;
      this.#toolsGeneration = generation;
    }
    const filter = this.#filter;
    if (filter === undefined) return this.#tools;
    if (typeof filter === 'function') {
      return this.#tools.filter((_tool, index) => filter(listed[index] as McpToolInfo, context));
    }
    return this.#tools.filter((tool) => filter.includes(tool.serverToolName));
  }

  /** Close the session; the next `getTools` opens a new one. */
  async close(): Promise<void> {
    await this.connection.close();
  }

  #adapt(info: McpToolInfo): McpTool {
    const confirmation = this.#confirmation;
    const requireConfirmation =
      confirmation === undefined || typeof confirmation === 'boolean'
        ? (confirmation ?? false)
        : typeof confirmation === 'function'
          ? confirmation
          : confirmation.includes(info.name);
    return new McpTool({
      connection: this.connection,
      info,
      name: this.#prefix ? `${this.#prefix}_${info.name}` : info.name,
      requireConfirmation,
      ...(this.#timeoutMs === undefined ? {} : { timeoutMs: this.#timeoutMs }),
    });
  }
}
