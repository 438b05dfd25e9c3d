/** Where HAProxy finds the servers it balances. */
export type HaproxyServers =
  /** Fixed addresses, e.g. `127.0.0.1:8001`. */
  | { kind: 'static'; addresses: readonly string[] }
  /** `count` slots filled from DNS (compose replicas behind one service name). */
  | { kind: 'dns'; service: string; port: number; count: number; nameserver: string };

/** Options of {@link renderHaproxyConfig}. */
export interface HaproxyConfigOptions {
  /** `host:port` or `:port` HAProxy listens on. */
  bind: string;
  servers: HaproxyServers;
  /** Health check interval in milliseconds (default 2000). */
  checkIntervalMs?: number;
  /** Write HAProxy's own log to stdout (default true). */
  logToStdout?: boolean;
}

/**
 * An HAProxy configuration for `adk api_server` replicas: round-robin, a server leaves the
 * rotation when `GET /health/ready` stops answering 200 (it is draining or dead) and comes back
 * after two good checks. Streams already open on a draining server are left to finish (no
 * `shutdown-sessions`): the server itself ends them at its deadline. Client and server timeouts
 * are long because `/run_sse` streams stay open for a whole turn.
 */
export function renderHaproxyConfig(options: HaproxyConfigOptions): string {
  const inter = options.checkIntervalMs ?? 2000;
  const lines = ['# Written by `adk deploy docker`.', 'global'];
  if (options.logToStdout ?? true) lines.push('  log stdout format raw local0');
  lines.push(
    '',
    'defaults',
    '  mode http',
    '  log global',
    '  option httplog',
    '  option dontlognull',
    '  timeout connect 5s',
    '  timeout client 10m',
    '  timeout server 10m',
    '  timeout http-request 30s',
    '  # Retried on another server: a connection that failed, and a 503 (a draining server refuses',
    '  # a run before storing anything). Never an empty or cut response: the run may have started.',
    '  retries 2',
    '  option redispatch 1',
    '  retry-on conn-failure 503',
    '  option http-buffer-request',
  );
  if (options.servers.kind === 'dns') {
    lines.push(
      '',
      'resolvers docker',
      `  nameserver dns ${options.servers.nameserver}`,
      '  hold valid 5s',
      '  accepted_payload_size 8192',
    );
  }
  lines.push(
    '',
    'frontend adk',
    `  bind ${options.bind}`,
    '  default_backend adk_servers',
    '',
    'backend adk_servers',
    '  balance roundrobin',
    '  option httpchk',
    '  http-check send meth GET uri /health/ready',
    '  http-check expect status 200',
    `  default-server inter ${inter} fall 2 rise 2`,
  );
  const servers = options.servers;
  if (servers.kind === 'dns') {
    lines.push(
      `  server-template adk ${servers.count} ${servers.service}:${servers.port} check resolvers docker init-addr none`,
    );
  } else {
    servers.addresses.forEach((address, index) =>
      lines.push(`  server adk${index + 1} ${address} check`),
    );
  }
  lines.push('');
  return lines.join('\n');
}
