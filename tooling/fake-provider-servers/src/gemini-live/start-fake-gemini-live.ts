import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { WebSocketServer, type WebSocket } from 'ws';

import { FakeLiveSession } from './fake-live-session';
import type {
  FakeGeminiLiveOptions,
  FakeGeminiLiveServer,
  FakeLiveClientMessage,
  FakeLiveConnection,
  FakeLiveTurn,
} from './fake-live-types';

const GEMINI_PATH =
  /^\/ws\/google\.ai\.generativelanguage\.v\w+\.GenerativeService\.BidiGenerateContent(Constrained)?$/;
const VERTEX_PATH = /^\/ws\/google\.cloud\.aiplatform\.v\w+\.LlmBidiService\/BidiGenerateContent$/;

interface Waiter {
  predicate: (message: FakeLiveClientMessage, connection: FakeLiveConnection) => boolean;
  resolve: (message: FakeLiveClientMessage) => void;
}

/**
 * Starts a fake Gemini Live API (`BidiGenerateContent` over WebSocket) on 127.0.0.1: both the
 * Gemini API path (key in `?key=` or `x-goog-api-key`) and the Vertex AI path (bearer token or
 * key). It answers `setup` with `setupComplete` and plays scripted turns in the real message
 * format (binary JSON frames, as the service sends them).
 */
export async function startFakeGeminiLive(
  options: FakeGeminiLiveOptions = {},
): Promise<FakeGeminiLiveServer> {
  const script: FakeLiveTurn[] = [...(options.script ?? [])];
  let consumed = 0;
  const handles: string[] = [];
  const connections: FakeLiveConnection[] = [];
  const sockets = new Set<WebSocket>();
  const waiters: Waiter[] = [];

  const notify = (connection: FakeLiveConnection) => {
    const message = connection.messages.at(-1);
    if (!message) return;
    for (const waiter of [...waiters]) {
      if (!waiter.predicate(message, connection)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  };

  const host = {
    nextTurn: () => (consumed < script.length ? script[consumed++] : undefined),
    issueHandle: () => {
      const handle = `fake-resumption-handle-${handles.length + 1}`;
      handles.push(handle);
      return handle;
    },
    knowsHandle: (handle: string) => handles.includes(handle),
    respondAfterAudioChunks: options.respondAfterAudioChunks ?? 3,
    holdSetup: options.holdSetup ?? false,
    rejectSetup: options.rejectSetup,
    textFrames: options.textFrames ?? false,
    onMessage: notify,
  };

  const wss = new WebSocketServer({ noServer: true });
  const server = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: {
          code: 404,
          message: 'Only WebSocket upgrades are served here.',
          status: 'NOT_FOUND',
        },
      }),
    );
  });

  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    // The SDK joins its base URL and path with a doubled slash (`//ws/...`): read the raw target.
    const url = new URL(`http://127.0.0.1/${(req.url ?? '/').replace(/^\/+/, '')}`);
    const path = url.pathname;
    const backend = GEMINI_PATH.test(path)
      ? 'gemini'
      : VERTEX_PATH.test(path)
        ? 'vertex'
        : undefined;
    const query = Object.fromEntries(url.searchParams.entries());
    const refuse = (status: number, text: string) => {
      socket.end(
        `HTTP/1.1 ${status} ${text}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${text}`,
      );
    };
    if (!backend) return refuse(404, 'Not Found');
    const key = query.key ?? query.access_token ?? req.headers['x-goog-api-key'];
    const bearer = /^Bearer \S+/.test(String(req.headers.authorization ?? ''));
    if (!key && !bearer) return refuse(401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => {
      const record: FakeLiveConnection = {
        path,
        backend,
        query,
        headers: req.headers,
        messages: [],
        open: true,
      };
      connections.push(record);
      sockets.add(ws);
      const session = new FakeLiveSession(ws, record, host);
      ws.on('message', (data: Buffer) => session.handle(data));
      ws.on('close', (code) => {
        record.open = false;
        record.closeCode = code;
        sockets.delete(ws);
      });
      ws.on('error', () => ws.terminate());
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseURL: `${url}/v1beta`,
    connections,
    get openConnections() {
      return sockets.size;
    },
    get handles() {
      return handles;
    },
    push(...turns) {
      script.push(...turns);
    },
    get pending() {
      return script.length - consumed;
    },
    waitForMessage(predicate) {
      for (const connection of connections) {
        const found = connection.messages.find((message) => predicate(message, connection));
        if (found) return Promise.resolve(found);
      }
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of sockets) ws.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
