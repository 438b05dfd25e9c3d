import type { McpServing } from '@adk/mcp';

import { UsageError } from '../errors';
import { parseCommandArgs, type CommandModule } from './command';
import { agentAppOf, loadAgentFile } from '../load-agents';
import { openSessionStore } from '../session-store';

/** Options of {@link mcp}. */
export interface McpCommandOptions {
  agentFile: string;
  transport: 'stdio' | 'http';
  port?: number;
  host?: string;
  sessionServiceUri?: string;
  /** Where the HTTP address is announced (stdout belongs to the protocol over stdio). */
  log?: NodeJS.WritableStream;
}

/**
 * `adk mcp <agent-file>`: serve the file's agent over MCP until the process is stopped. Over
 * stdio nothing but the protocol is written to stdout.
 */
export async function mcp(options: McpCommandOptions): Promise<McpServing> {
  // Loaded on demand: the other commands never pay for the MCP SDK.
  const { serveAsMcp } = await import('@adk/mcp');
  // Named as `adk web` and `adk eval` name it: an app folder by its folder, an agent file by its name.
  const app = agentAppOf(options.agentFile);
  const agent = await loadAgentFile(app.file);
  const store = await openSessionStore(options.sessionServiceUri);
  const common = { sessionService: store.service, appName: app.appName };
  const serving =
    options.transport === 'stdio'
      ? await serveAsMcp(agent, { transport: 'stdio', ...common })
      : await serveAsMcp(agent, {
          transport: 'streamable-http',
          ...common,
          ...(options.port === undefined ? {} : { port: options.port }),
          ...(options.host === undefined ? {} : { host: options.host }),
        });
  const log = options.log ?? process.stderr;
  log.write(
    `MCP server "${agent.name}" on ${serving.url ?? 'stdio'} (sessions ${store.description})\n`,
  );
  return {
    url: serving.url,
    async close() {
      await serving.close();
      await store.close();
    },
  };
}

/** The options of `adk mcp`, parsed. */
interface McpValues {
  transport?: string | undefined;
  port?: string | undefined;
  host?: string | undefined;
  session_service_uri?: string | undefined;
}

/** Parse `adk mcp` arguments and serve until SIGINT/SIGTERM (or stdin closes, over stdio). */
export async function runMcpCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(mcpCommandModule, args);
  return serveMcpCommand(values as McpValues, positionals);
}

/** `adk mcp`, as a module of the `adk` command list. */
export const mcpCommandModule: CommandModule = {
  name: 'mcp',
  args: '<agent> [options]',
  summary:
    'Serve an agent as an MCP server (one tool taking a message; calls of one MCP session share an ADK session).',
  details:
    'stdio by default, for Claude Desktop or MCP Inspector; --transport http serves Streamable HTTP at /mcp.',
  options: {
    transport: { type: 'string', value: 'stdio|http', description: 'Transport (default stdio)' },
    port: { type: 'string', value: 'N', description: 'Port of the HTTP transport' },
    host: { type: 'string', value: 'HOST', description: 'Interface of the HTTP transport' },
    session_service_uri: {
      type: 'string',
      value: 'URI',
      description: 'Where the sessions live (default in memory)',
    },
  },
  run: ({ values, positionals }) => serveMcpCommand(values as McpValues, positionals),
};

async function serveMcpCommand(values: McpValues, positionals: string[]): Promise<number> {
  const file = positionals[0];
  if (!file) throw new UsageError('adk mcp needs an agent folder or file: adk mcp ./agent.ts');
  const transport = values.transport ?? 'stdio';
  if (transport !== 'stdio' && transport !== 'http') {
    throw new UsageError(`Invalid --transport: ${transport} (use stdio or http)`);
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new UsageError(`Invalid --port: ${String(values.port)}`);
  }
  const serving = await mcp({
    agentFile: file,
    transport,
    ...(port === undefined ? {} : { port }),
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values.session_service_uri === undefined
      ? {}
      : { sessionServiceUri: values.session_service_uri }),
  });
  const stop = () => {
    void serving.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (transport === 'stdio') process.stdin.once('end', stop);
  return await new Promise<number>(() => undefined);
}
