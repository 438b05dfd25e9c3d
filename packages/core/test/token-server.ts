import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake token endpoint received. */
export interface SeenTokenRequest {
  authorization: string | undefined;
  body: URLSearchParams;
}

/**
 * An OAuth2 token endpoint on 127.0.0.1 speaking RFC 6749 (form-encoded request, JSON answer): it
 * accepts the code `good` once, answering `at-1` / `rt-1` / 3600 s; it accepts each refresh token
 * `rt-<n>` once, answering `at-<n+1>` / `rt-<n+1>` / 3600 s (rotation); it refuses anything else
 * with 400 `invalid_grant`.
 */
export async function startTokenServer(): Promise<{
  url: string;
  seen: SeenTokenRequest[];
  server: Server;
}> {
  const seen: SeenTokenRequest[] = [];
  const used = new Set<string>();
  const server = createServer((request: IncomingMessage, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const body = new URLSearchParams(raw);
      seen.push({ authorization: request.headers.authorization, body });
      response.setHeader('content-type', 'application/json');
      if (body.get('grant_type') === 'refresh_token') {
        const token = body.get('refresh_token') ?? '';
        const generation = /^rt-(\d+)$/.exec(token)?.[1];
        if (generation === undefined || used.has(token)) {
          response.statusCode = 400;
          response.end(JSON.stringify({ error: 'invalid_grant' }));
          return;
        }
        used.add(token);
        const next = Number(generation) + 1;
        response.end(
          JSON.stringify({
            access_token: `at-${next}`,
            refresh_token: `rt-${next}`,
            expires_in: 3600,
          }),
        );
        return;
      }
      const code = body.get('code') ?? '';
      if (code !== 'good' || used.has(code)) {
        response.statusCode = 400;
        response.end(JSON.stringify({ error: 'invalid_grant' }));
        return;
      }
      used.add(code);
      response.end(
        JSON.stringify({ access_token: 'at-1', refresh_token: 'rt-1', expires_in: 3600 }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/token`, seen, server };
}
