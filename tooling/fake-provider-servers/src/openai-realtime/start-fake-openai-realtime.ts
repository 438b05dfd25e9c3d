import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { WebSocketServer, type WebSocket } from 'ws';

import { FakeRealtimeSession } from './fake-realtime-session';
import type {
  FakeRealtimeOptions,
  FakeRealtimeResponse,
  FakeRealtimeServer,
  RecordedRealtimeConnection,
} from './realtime-script';

/**
 * Starts a fake OpenAI Realtime API (GA wire format) on 127.0.0.1, random port: WebSocket
 * upgrades on `/v1/realtime?model=...` with `Authorization: Bearer` (or Azure's `api-key`),
 * `session.created` / `session.update`, the input audio buffer with a simple server VAD (a fixed
 * amount of audio is one utterance), conversation items, scripted responses with audio,
 * transcripts, text and function calls, barge-in, cancellation and truncation, and faults.
 *
 * @example
 * ```ts
 * const server = await startFakeOpenAIRealtime({
 *   script: [{ audioMs: 400, transcript: 'Hello there.' }],
 *   inputTranscripts: ['Hi!'],
 * });
 * const openai = createOpenAI({ apiKey: 'test', baseURL: server.baseURL });
 * ```
 */
export async function startFakeOpenAIRealtime(
  options: FakeRealtimeOptions = {},
): Promise<FakeRealtimeServer> {
  const script: FakeRealtimeResponse[] = [...(options.script ?? [])];
  const transcripts = [...(options.inputTranscripts ?? [])];
  const source = { next: () => script.shift(), nextInputTranscript: () => transcripts.shift() };
  const connections: RecordedRealtimeConnection[] = [];
  const sockets = new Set<WebSocket>();
  const rawSockets = new Set<Socket>();
  const wss = new WebSocketServer({ noServer: true });
  const http = createServer((_request, response) => {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ error: { message: 'Not found', type: 'invalid_request_error' } }),
    );
  });
  http.on('connection', (socket) => {
    rawSockets.add(socket);
    socket.on('close', () => rawSockets.delete(socket));
  });

  http.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const refusal = refuse(url, request, options);
    if (refusal) {
      const body = JSON.stringify({
        error: { message: refusal.message, type: refusal.type, code: refusal.code, param: null },
      });
      socket.end(
        `HTTP/1.1 ${refusal.status} ${refusal.statusText}\r\ncontent-type: application/json\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws);
      const record: RecordedRealtimeConnection = {
        url: `${url.pathname}${url.search}`,
        headers: { ...request.headers },
        events: [],
        session: {},
        items: [],
        audioBytes: 0,
        open: true,
      };
      connections.push(record);
      const session = new FakeRealtimeSession(ws, record, options, source);
      ws.on('message', (data, isBinary) => {
        if (isBinary) return ws.close(1003, 'binary frames are not supported');
        session.receive(data.toString());
      });
      ws.on('close', () => {
        record.open = false;
        sockets.delete(ws);
      });
      if (options.handshake !== 'silent') session.start();
    });
  });

  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    realtimeURL: `ws://127.0.0.1:${port}/v1/realtime`,
    connections,
    get pending() {
      return script.length;
    },
    push: (...responses) => void script.push(...responses),
    dropAll(code = 1012, reason = 'service restart') {
      for (const ws of sockets) ws.close(code, reason);
    },
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      for (const socket of rawSockets) socket.destroy();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

interface Refusal {
  status: number;
  statusText: string;
  message: string;
  type: string;
  code: string | null;
}

function refuse(
  url: URL,
  request: IncomingMessage,
  options: FakeRealtimeOptions,
): Refusal | undefined {
  if (!/\/realtime$/.test(url.pathname)) {
    return {
      status: 404,
      statusText: 'Not Found',
      message: `No route for ${url.pathname}`,
      type: 'invalid_request_error',
      code: null,
    };
  }
  if (options.handshake && options.handshake !== 'silent') {
    const { status, message } = options.handshake;
    return {
      status,
      statusText: status === 429 ? 'Too Many Requests' : 'Error',
      message: message ?? `Fake handshake refusal ${status}`,
      type: status === 429 ? 'rate_limit_exceeded' : 'server_error',
      code: null,
    };
  }
  if (!url.searchParams.get('model') && !url.searchParams.get('deployment')) {
    return {
      status: 400,
      statusText: 'Bad Request',
      message: "Missing required parameter: 'model'.",
      type: 'invalid_request_error',
      code: 'missing_required_parameter',
    };
  }
  if (options.apiKey !== undefined) {
    const bearer = request.headers.authorization;
    const azure = request.headers['api-key'];
    if (bearer !== `Bearer ${options.apiKey}` && azure !== options.apiKey) {
      return {
        status: 401,
        statusText: 'Unauthorized',
        message: 'Incorrect API key provided.',
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      };
    }
  }
  return undefined;
}
