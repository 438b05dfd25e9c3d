/**
 * The Streamable HTTP client of the SDK (1.x) leaves a request waiting for its whole timeout when
 * the stream carrying its answer ends or breaks first: a server that died mid-call looked like a
 * slow one. This `fetch` wrapper watches each POST that carries requests. When its event stream
 * ends without answering some of them and cannot be resumed (the server sent no event ids), it
 * appends a JSON-RPC "connection closed" error for each, in the stream itself, so the SDK settles
 * them in order with everything the server did send. A resumable stream is left to the SDK, which
 * resumes it with `Last-Event-ID`.
 *
 * Network failures are tagged on the way out: {@link ConnectionLostError} says whether the server
 * can have seen the request (refused connection: no; reset or truncated answer: maybe).
 */

/** JSON-RPC code of a closed connection (the SDK's `ErrorCode.ConnectionClosed`). */
const CONNECTION_CLOSED = -32000;

/** The `fetch` the SDK's transports accept. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The HTTP exchange of a request failed in the network. */
export class ConnectionLostError extends Error {
  /** False when the connection was refused: the request cannot have reached the server. */
  readonly delivered: boolean;

  constructor(cause: unknown, delivered: boolean) {
    super(describe(cause), { cause });
    this.name = 'ConnectionLostError';
    this.delivered = delivered;
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { message?: unknown } } | undefined)?.cause;
  const detail = typeof cause?.message === 'string' ? `: ${cause.message}` : '';
  return `${error instanceof Error ? error.message : String(error)}${detail}`;
}

function refused(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return code === 'ECONNREFUSED';
}

/** Ids of the requests (not notifications or responses) in a POSTed JSON-RPC body. */
function requestIds(body: unknown): (string | number)[] {
  if (typeof body !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const messages = Array.isArray(parsed) ? (parsed as unknown[]) : [parsed];
  const ids: (string | number)[] = [];
  for (const message of messages) {
    const { id, method } = (message ?? {}) as { id?: unknown; method?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) {
      ids.push(id);
    }
  }
  return ids;
}

/** Wrap `base` so that lost answers of Streamable HTTP requests fail at once (see the module). */
export function guardResponses(base: FetchLike): FetchLike {
  return async (url, init) => {
    let response: Response;
    try {
      response = await base(url, init);
    } catch (error) {
      if (init?.signal?.aborted) throw error;
      throw new ConnectionLostError(error, !refused(error));
    }
    const ids = init?.method === 'POST' ? requestIds(init.body) : [];
    if (ids.length === 0 || !response.ok || response.body === null) return response;
    const eventStream = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    const body = eventStream
      ? watchEventStream(response.body, new Set(ids), init?.signal ?? undefined)
      : tagBodyErrors(response.body);
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** A JSON answer cut short reads as a lost connection. */
function tagBodyErrors(source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(new ConnectionLostError(error, true));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** Passes the SSE bytes through, noting answered ids and event ids; settles the rest at the end. */
function watchEventStream(
  source: ReadableStream<Uint8Array>,
  pending: Set<string | number>,
  signal: AbortSignal | undefined,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const decoder = new TextDecoder();
  const event = { data: [] as string[], type: '' };
  let partial = '';
  let resumable = false;

  const dispatch = (): void => {
    const data = event.data.join('\n');
    const type = event.type;
    event.data = [];
    event.type = '';
    if (data === '' || (type !== '' && type !== 'message')) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    for (const message of Array.isArray(parsed) ? (parsed as unknown[]) : [parsed]) {
      const answer = (message ?? {}) as { id?: string | number; method?: unknown };
      if (answer.method === undefined && answer.id !== undefined) pending.delete(answer.id);
    }
  };
  const readLine = (line: string): void => {
    if (line === '') return dispatch();
    const colon = line.indexOf(':');
    if (colon === 0) return;
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') event.data.push(value);
    else if (field === 'event') event.type = value;
    else if (field === 'id' && value !== '') resumable = true;
  };
  const observe = (chunk: Uint8Array): void => {
    if (pending.size === 0) return;
    const lines = (partial + decoder.decode(chunk, { stream: true })).split(/\r\n|\r|\n/);
    partial = lines.pop() ?? '';
    for (const line of lines) readLine(line);
  };
  /** The answers the server can no longer give, as SSE events the SDK reads like any other. */
  const abandoned = (reason: string): Uint8Array | undefined => {
    if (resumable || pending.size === 0 || signal?.aborted) return undefined;
    const events = [...pending].map((id) => {
      const error = { code: CONNECTION_CLOSED, message: `Connection closed: ${reason}` };
      return `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error })}\n\n`;
    });
    pending.clear();
    // The blank lines end whatever event the server left unfinished.
    return new TextEncoder().encode(`\n\n${events.join('')}`);
  };

  return new ReadableStream({
    async pull(controller) {
      let tail: Uint8Array | undefined;
      try {
        const { done, value } = await reader.read();
        if (!done) {
          observe(value);
          controller.enqueue(value);
          return;
        }
        tail = abandoned('the server ended the response stream without answering');
      } catch (error) {
        tail = abandoned(`the response stream broke (${describe(error)})`);
        if (tail === undefined) return controller.error(error);
      }
      if (tail !== undefined) controller.enqueue(tail);
      controller.close();
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
