import { parseArgs } from 'node:util';

import { AdkError } from '@adk/core';

import packageJson from '../package.json' with { type: 'json' };
import { chat } from './commands/chat';
import { serve } from './commands/serve';
import { WORKER_HELP, workerCommand } from './commands/worker';
import { UsageError } from './errors';

const AGENT_CARD = '/.well-known/agent-card.json';

export const HELP = `adk ${packageJson.version}: ADK for TypeScript command line

Usage:
  adk run <agent-file> [--session_service_uri URI] [--session_id ID] [--user_id ID]
      Chat with an agent in the terminal. The file exports \`rootAgent\` (or a default agent).
  adk api_server [agents_dir] [options]
      Serve a folder of agents over the ADK API (default folder: the current one).
  adk web [agents_dir] [options]
      The same, plus the web chat page at /.
${WORKER_HELP}
Options of api_server and web:
  --port N                 Port (default 8000; 0 picks a free one)
  --host HOST              Interface (default 127.0.0.1)
  --session_service_uri U  sqlite:./sessions.db, postgres://..., or memory:// (default)
  --allow_origins O        Origin allowed to call the API from a browser (repeatable; regex:... ok)
  --token T                Require "Authorization: Bearer T" (default: ADK_API_TOKEN if set)
  --timestamp_unit U       milliseconds (default) or seconds (what the ADK web UI expects)
  --a2a                    Serve every app over A2A too: card at /a2a/<app>/.well-known/agent-card.json,
                           JSON-RPC at /a2a/<app>

Each sub-folder of agents_dir with an agent.ts / index.ts (or .js), and each agent file in it,
is one app named after it.
`;

/** Run the `adk` command line; returns the exit code (servers keep running until a signal). */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (!command || command === '--help' || command === '-h' || command === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    if (command === '--version' || command === '-v') {
      process.stdout.write(`${packageJson.version}\n`);
      return 0;
    }
    if (command === 'run') {
      const { values, positionals } = parse(rest, {
        session_service_uri: { type: 'string' },
        session_id: { type: 'string' },
        user_id: { type: 'string' },
      });
      const file = positionals[0];
      if (!file) throw new UsageError('adk run needs an agent file: adk run ./agent.ts');
      await chat({
        agentFile: file,
        ...(values.session_service_uri
          ? { sessionServiceUri: String(values.session_service_uri) }
          : {}),
        ...(values.session_id ? { sessionId: String(values.session_id) } : {}),
        ...(values.user_id ? { userId: String(values.user_id) } : {}),
      });
      return 0;
    }
    if (command === 'worker') return await workerCommand(rest, env);
    if (command === 'api_server' || command === 'web') {
      const { values, positionals } = parse(rest, {
        port: { type: 'string' },
        host: { type: 'string' },
        session_service_uri: { type: 'string' },
        allow_origins: { type: 'string', multiple: true },
        token: { type: 'string' },
        timestamp_unit: { type: 'string' },
        a2a: { type: 'boolean' },
      });
      const unit = values.timestamp_unit as string | undefined;
      if (unit !== undefined && unit !== 'seconds' && unit !== 'milliseconds') {
        throw new UsageError(`Invalid --timestamp_unit: ${unit} (use seconds or milliseconds)`);
      }
      const port = values.port === undefined ? 8000 : Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new UsageError(`Invalid --port: ${String(values.port)}`);
      const token = (values.token as string | undefined) ?? env.ADK_API_TOKEN;
      const server = await serve({
        agentsDir: positionals[0] ?? '.',
        port,
        host: (values.host as string | undefined) ?? '127.0.0.1',
        web: command === 'web',
        allowOrigins: ((values.allow_origins as string[] | undefined) ?? [])
          .flatMap((o) => o.split(','))
          .filter(Boolean),
        ...(values.session_service_uri
          ? { sessionServiceUri: String(values.session_service_uri) }
          : {}),
        ...(token ? { token } : {}),
        ...(unit ? { timestampUnit: unit } : {}),
        ...(values.a2a === true ? { a2a: true } : {}),
      });
      process.stdout.write(
        `ADK ${command === 'web' ? 'web' : 'API server'} serving ${server.apps.join(', ') || 'no apps'} on ${server.url}\n`,
      );
      if (values.a2a === true) {
        process.stdout.write(
          `A2A agents: ${server.url}/a2a/<app> (card at /a2a/<app>${AGENT_CARD})\n`,
        );
      }
      const stop = () => {
        void server.close().then(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return await new Promise<number>(() => undefined);
    }
    throw new UsageError(`Unknown command "${command}". Run "adk --help".`);
  } catch (error) {
    if (UsageError.isInstance(error)) process.stderr.write(`${error.message}\n`);
    else if (AdkError.isInstance(error)) process.stderr.write(`error: ${error.message}\n`);
    else process.stderr.write(`error: ${(error as Error)?.stack ?? String(error)}\n`);
    return UsageError.isInstance(error) ? 2 : 1;
  }
}

type OptionSpec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

function parse(args: string[], options: OptionSpec) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}. Run "adk --help".`);
  }
}
