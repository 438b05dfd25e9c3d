import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A node:http server on 127.0.0.1 answering with `handler`; records requests and socket closes. */
export async function startServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: string, index: number) => unknown,
): Promise<{
  url: string;
  requests: ReceivedRequest[];
  /** Resolves when the n-th request's connection closed (0-based). */
  closed: (index: number) => Promise<void>;
  close: () => Promise<void>;
}> {
  const requests: ReceivedRequest[] = [];
  const closeWaiters = new Map<number, Promise<void>>();
  const server = createServer((req, res) => {
    const index = requests.length;
    closeWaiters.set(index, new Promise((resolve) => res.on('close', () => resolve())));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      void handler(req, res, body, index);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    closed: (index) => closeWaiters.get(index) ?? Promise.reject(new Error(`no request ${index}`)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
