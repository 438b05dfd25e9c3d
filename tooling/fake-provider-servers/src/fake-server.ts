import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { conceptVector } from '@adk/memory/testing';

import type { EmbeddingRoute } from './embeddings/embedding-route';
import type {
  FakeError,
  FakeProviderServer,
  FakeReply,
  FakeScript,
  FakeServerOptions,
  RecordedRequest,
} from './types';

/** What a provider module supplies to {@link startFakeServer}. */
export interface ProviderDialect {
  /** Path prefix of the API, appended to the URL to form `baseURL`. */
  basePath: string;
  /** Reads stream flag and model from a request; undefined when the route is unknown. */
  route(
    path: string,
    query: Record<string, string>,
    body: unknown,
  ): { stream: boolean; model?: string } | undefined;
  /** Writes a scripted reply in the provider's format. */
  respond(
    reply: FakeReply,
    request: RecordedRequest,
    res: ServerResponse,
    sequence: number,
  ): Promise<void>;
  /**
   * Answers requests that need no script (resources such as Gemini's `cachedContents`, or a
   * request the API would refuse before generating): returns true when it wrote the answer. Runs
   * for every request, any method, before the scripted routes; the request is recorded either way.
   */
  resource?(request: RecordedRequest, res: ServerResponse): boolean;
  /** Recognises the provider's embedding endpoints; they answer without a script. */
  embedding?(path: string, body: unknown): EmbeddingRoute | undefined;
  /** Writes an error in the provider's error JSON shape. */
  error(
    res: ServerResponse,
    status: number,
    message: string,
    type?: string,
    headers?: Record<string, string>,
  ): void;
}

/** Starts a fake provider server on 127.0.0.1 speaking `dialect`. */
export async function startFakeServer(
  dialect: ProviderDialect,
  options: FakeServerOptions = {},
): Promise<FakeProviderServer> {
  let script: FakeScript = options.script ?? [];
  let consumed = 0;
  let sequence = 0;
  const requests: RecordedRequest[] = [];
  const embeddingFaults: FakeError[] = [...(options.embeddingFaults ?? [])];
  const embed = options.embed ?? conceptVector;
  const embeddingDimensions = options.embeddingDimensions ?? 256;

  const answerEmbedding = (route: EmbeddingRoute, res: ServerResponse) => {
    const fault = embeddingFaults.shift();
    if (fault) {
      const extra: Record<string, string> = { ...fault.headers };
      if (fault.retryAfter !== undefined) extra['retry-after'] = fault.retryAfter;
      dialect.error(
        res,
        fault.status,
        fault.message ?? defaultMessage(fault.status),
        fault.type,
        extra,
      );
      return;
    }
    if (route.invalid) {
      dialect.error(res, 400, route.invalid);
      return;
    }
    const vectors = route.inputs.map((input) =>
      embed(input.text, input.dimensions ?? embeddingDimensions),
    );
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(route.answer(vectors)));
  };

  const next = (request: RecordedRequest, index: number): FakeReply | undefined => {
    if (typeof script === 'function') return script(request, index);
    const reply = script[consumed];
    if (reply) consumed++;
    return reply;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const query = Object.fromEntries(url.searchParams.entries());
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const embedding = req.method === 'POST' ? dialect.embedding?.(url.pathname, body) : undefined;
    if (embedding) {
      requests.push({
        method: req.method ?? '',
        path: url.pathname,
        query,
        headers: req.headers,
        body,
        stream: false,
        model: embedding.model,
      });
      answerEmbedding(embedding, res);
      return;
    }
    const route = req.method === 'POST' ? dialect.route(url.pathname, query, body) : undefined;
    const request: RecordedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query,
      headers: req.headers,
      body,
      stream: route?.stream ?? false,
      model: route?.model,
    };
    const index = requests.length;
    requests.push(request);
    if (dialect.resource?.(request, res)) return;
    if (!route) {
      dialect.error(res, 404, `fake server: no route for ${req.method} ${url.pathname}`);
      return;
    }
    if (body === undefined) {
      dialect.error(res, 400, 'fake server: the request body is not JSON', 'invalid_request_error');
      return;
    }
    const reply = next(request, index);
    if (!reply) {
      dialect.error(
        res,
        500,
        `fake server: no scripted reply left for request #${index + 1}`,
        'fake_script_exhausted',
      );
      return;
    }
    sequence++;
    if (reply.raw) {
      res.writeHead(reply.raw.status ?? 200, {
        'content-type': 'application/json',
        ...reply.raw.headers,
      });
      res.end(reply.raw.body);
      return;
    }
    if (reply.error) {
      const { status, message, type, retryAfter, headers } = reply.error;
      const extra: Record<string, string> = { ...headers };
      if (retryAfter !== undefined) extra['retry-after'] = retryAfter;
      dialect.error(res, status, message ?? defaultMessage(status), type, extra);
      return;
    }
    const faults = reply.faults ?? {};
    if (
      !request.stream &&
      (faults.hangAfterDeltas !== undefined || faults.hangAfterEvents !== undefined)
    ) {
      return; // a non-streamed answer that never comes (the client has to abort or time out)
    }
    if (!request.stream && faults.cutAfterDeltas !== undefined) {
      res.socket?.destroy(); // the connection drops before any answer
      return;
    }
    await dialect.respond(reply, request, res, sequence);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((error: unknown) => {
        if (!res.headersSent)
          dialect.error(res, 500, `fake server crashed: ${String(error)}`, 'internal');
        else res.destroy();
      });
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
    baseURL: `${url}${dialect.basePath}`,
    requests,
    push(...replies) {
      if (typeof script === 'function') script = [];
      script.push(...replies);
    },
    setScript(newScript) {
      script = newScript;
      consumed = 0;
    },
    failEmbeddings(...errors) {
      embeddingFaults.push(...errors);
    },
    get pending() {
      return typeof script === 'function' ? 0 : script.length - consumed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function defaultMessage(status: number): string {
  if (status === 429) return 'Rate limit exceeded. Please retry later.';
  if (status === 401) return 'Invalid API key.';
  if (status >= 500) return 'The server had an error while processing your request.';
  return 'Invalid request.';
}
