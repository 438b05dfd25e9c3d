import { InvalidArgumentError } from '@adk/core';

import type { McpConnectionParams } from './connection-params';

const TRANSPORTS = ['stdio', 'streamable-http', 'sse'];

function refuse(message: string, argument: string): never {
  throw new InvalidArgumentError({ message, argument });
}

/**
 * Check connection settings when a toolset is built, so a mistake is named there rather than
 * surfacing as a `TypeError` at the first call.
 * @throws InvalidArgumentError when `transport` is missing or unknown, a stdio connection has no
 *   command, or an HTTP connection's `url` is not an absolute http(s) URL.
 */
export function validateConnectionParams(params: McpConnectionParams): void {
  const given = params as unknown as Record<string, unknown> | undefined;
  if (given === null || typeof given !== 'object') {
    refuse('The MCP connection settings must be an object.', 'connection');
  }
  const transport = given.transport;
  if (typeof transport !== 'string' || !TRANSPORTS.includes(transport)) {
    refuse(
      `The MCP connection needs \`transport\`: 'stdio', 'streamable-http' or 'sse' (got ${JSON.stringify(transport) ?? 'nothing'}).`,
      'connection.transport',
    );
  }
  if (transport === 'stdio') {
    if (typeof given.command !== 'string' || given.command === '') {
      refuse(
        'A stdio MCP connection needs `command`, the executable to start.',
        'connection.command',
      );
    }
    return;
  }
  const url = given.url;
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' || url instanceof URL ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    refuse(
      `An MCP ${transport} connection needs \`url\`, an absolute http(s) URL (got ${JSON.stringify(String(url))}).`,
      'connection.url',
    );
  }
}
