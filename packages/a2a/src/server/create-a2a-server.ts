import {
  InvalidArgumentError,
  Runner,
  type ArtifactService,
  type BaseAgent,
  type BasePlugin,
  type MemoryService,
  type RunConfig,
  type SessionService,
} from '@adk/core';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';

import { A2aRpcError } from '../errors/a2a-rpc-error';
import {
  A2aErrorCode,
  A2aMethod,
  type JsonRpcErrorObject,
  type JsonRpcId,
} from '../protocol/json-rpc';
import { AGENT_CARD_PATH, LEGACY_AGENT_CARD_PATH, type A2aAgentCard } from '../protocol/types';
import { validateMessageSendParams, validateTaskIdParams } from '../protocol/validate-params';
import { buildAgentCard } from './agent-card';
import { endpointResolver } from './endpoint-url';
import { A2aRequestHandler, defaultA2aUserId, type A2aUserIdResolver } from './request-handler';
import { taskEventStream } from './sse-stream';
import { TaskStore } from './task-store';

/** Options of {@link createA2aServer}: a `runner`, or an `agent` (and services) to build one. */
export interface A2aServerOptions {
  /** The runner to serve. Its sessions are the A2A contexts (session id = `contextId`). */
  runner?: Runner;
  /** The agent to serve, when no `runner` is given. */
  agent?: BaseAgent;
  /** App name of the runner built for `agent` (default: the agent's name). */
  appName?: string;
  sessionService?: SessionService;
  artifactService?: ArtifactService;
  memoryService?: MemoryService;
  plugins?: readonly BasePlugin[];
  /**
   * Fields of the agent card to set or override. `url` defaults to this server's endpoint: see
   * `publicUrl` and `basePath`.
   */
  agentCard?: Partial<A2aAgentCard>;
  /** Path of the JSON-RPC endpoint (default `/`). */
  rpcPath?: string;
  /**
   * Path prefix this app is mounted under on the same origin, e.g. `/agents/travel` for
   * `parent.route('/agents/travel', a2aApp)`: the card's `url` becomes the request's origin +
   * `basePath` + `rpcPath`. It names where clients reach the app; it does not move its routes
   * (mounting does). Not with `publicUrl`.
   */
  basePath?: string;
  /**
   * Absolute URL clients reach this app's root at, when it differs from what the server sees,
   * e.g. behind a reverse proxy or under a prefix the proxy strips:
   * `https://agents.example.com/travel`. The card's `url` is then this URL + `rpcPath`, whatever
   * the request's `Host` and scheme (forwarded headers are not trusted). Not with `basePath`.
   */
  publicUrl?: string;
  /** The ADK user id of a request (default `A2A_USER_<contextId>`, as the Python ADK). */
  userId?: A2aUserIdResolver;
  /** Run settings of every run (default: not streamed, core's limits). */
  runConfig?: Partial<RunConfig>;
  /** Finished tasks kept for `tasks/get` (default 10,000; the oldest are forgotten first). */
  maxTasks?: number;
  /** Largest request body accepted, in bytes (default 10 MiB). */
  maxBodyBytes?: number;
  /** Interval of SSE keep-alive comments while a stream is quiet (default 15,000 ms). */
  sseKeepAliveMs?: number;
}

/** The Hono app of an A2A server, with the runner it serves. */
export type A2aServerApp = Hono & {
  readonly runner: Runner;
  /** Abort the running tasks and close the runner (when the server built it). */
  close(): Promise<void>;
};

/**
 * Serve an ADK agent over the A2A protocol: a Hono app answering JSON-RPC 2.0 at `rpcPath`
 * (`message/send`, `message/stream` as SSE, `tasks/get`, `tasks/cancel`, `tasks/resubscribe`) and
 * publishing the agent card at `/.well-known/agent-card.json` (and the older
 * `/.well-known/agent.json`). Each A2A `contextId` is an ADK session, created on first use; each
 * message runs one turn as a task. Mounted under a prefix or behind a proxy, pass `basePath` or
 * `publicUrl` so the card names the endpoint clients can reach.
 *
 * @example
 * ```ts
 * const app = createA2aServer({ agent, agentCard: { version: '1.0.0' } });
 * const server = await listenA2a(app, { port: 9000 });
 * console.log(`${server.url}/.well-known/agent-card.json`);
 * ```
 *
 * @throws InvalidArgumentError when neither `runner` nor `agent` is given, when both `basePath`
 *   and `publicUrl` are, or when either is malformed.
 */
export function createA2aServer(options: A2aServerOptions): A2aServerApp {
  // Checked first: a refused option must not leave a runner built.
  const rpcPath = options.rpcPath ?? '/';
  const endpointUrl = endpointResolver({
    rpcPath,
    ...(options.basePath === undefined ? {} : { basePath: options.basePath }),
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
  });
  const ownsRunner = !options.runner;
  const runner = options.runner ?? buildRunner(options);
  const store = new TaskStore(options.maxTasks);
  const handler = new A2aRequestHandler({
    runner,
    store,
    userId: options.userId ?? defaultA2aUserId,
    runConfig: options.runConfig,
  });
  const keepAliveMs = options.sseKeepAliveMs ?? 15_000;
  const app = new Hono();

  const card = (c: Context): A2aAgentCard => {
    const url = options.agentCard?.url ?? endpointUrl(c.req.url);
    return buildAgentCard(runner.agent, { ...options.agentCard, url });
  };
  app.get(AGENT_CARD_PATH, (c) => c.json(card(c)));
  app.get(LEGACY_AGENT_CARD_PATH, (c) => c.json(card(c)));

  app.post(
    rpcPath,
    bodyLimit({
      maxSize: options.maxBodyBytes ?? 10 * 1024 * 1024,
      onError: (c) =>
        c.json(
          errorResponse(null, {
            code: A2aErrorCode.invalidRequest,
            message: 'Request body too large.',
          }),
          413,
        ),
    }),
    async (c) => {
      let body: unknown;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        return c.json(
          errorResponse(null, {
            code: A2aErrorCode.parseError,
            message: 'Parse error: the body is not valid JSON.',
          }),
        );
      }
      const request = asRequest(body);
      if ('error' in request) return c.json(errorResponse(request.id, request.error));
      const { id, method, params } = request;
      try {
        switch (method) {
          case A2aMethod.sendMessage: {
            const result = await handler.sendMessage(validateMessageSendParams(params), c.req.raw);
            return c.json({ jsonrpc: '2.0', id, result });
          }
          case A2aMethod.streamMessage: {
            const valid = validateMessageSendParams(params);
            let stop = (): void => {};
            const stream = taskEventStream(id, keepAliveMs, () => stop());
            const started = await handler.startTask(valid, c.req.raw, stream.listener);
            stop = started.unsubscribe;
            return sse(stream.body);
          }
          case A2aMethod.getTask:
            return c.json({
              jsonrpc: '2.0',
              id,
              result: handler.getTask(validateTaskIdParams(params)),
            });
          case A2aMethod.cancelTask:
            return c.json({
              jsonrpc: '2.0',
              id,
              result: handler.cancelTask(validateTaskIdParams(params)),
            });
          case A2aMethod.resubscribe: {
            const record = handler.task(validateTaskIdParams(params).id);
            let unsubscribe = (): void => {};
            const stream = taskEventStream(id, keepAliveMs, () => unsubscribe());
            stream.push(record.snapshot());
            if (record.running) unsubscribe = record.subscribe(stream.listener);
            else stream.close();
            return sse(stream.body);
          }
          default:
            return c.json(
              errorResponse(id, {
                code: isPushMethod(method)
                  ? A2aErrorCode.pushNotificationNotSupported
                  : A2aErrorCode.methodNotFound,
                message: isPushMethod(method)
                  ? 'Push notifications are not supported.'
                  : `Method not found: ${method}`,
              }),
            );
        }
      } catch (error) {
        return c.json(errorResponse(id, toErrorObject(error)));
      }
    },
  );

  return Object.assign(app, {
    runner,
    async close(): Promise<void> {
      store.abortAll();
      if (ownsRunner) await runner.close();
    },
  });
}

function buildRunner(options: A2aServerOptions): Runner {
  if (!options.agent) {
    throw new InvalidArgumentError({
      message: 'createA2aServer needs a runner or an agent.',
      argument: 'agent',
    });
  }
  return new Runner({
    appName: options.appName ?? options.agent.name,
    agent: options.agent,
    sessionService: options.sessionService,
    artifactService: options.artifactService,
    memoryService: options.memoryService,
    plugins: options.plugins,
  });
}

type ParsedRequest =
  { id: JsonRpcId; method: string; params: unknown } | { id: JsonRpcId; error: JsonRpcErrorObject };

function asRequest(body: unknown): ParsedRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      id: null,
      error: {
        code: A2aErrorCode.invalidRequest,
        message: 'Invalid Request: expected one JSON-RPC request object.',
      },
    };
  }
  const record = body as Record<string, unknown>;
  const id = record.id;
  const validId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
  if (record.jsonrpc !== '2.0' || typeof record.method !== 'string' || !validId) {
    return {
      id: validId ? id : null,
      error: {
        code: A2aErrorCode.invalidRequest,
        message: 'Invalid Request: needs jsonrpc "2.0", a string method and a string or number id.',
      },
    };
  }
  return { id, method: record.method, params: record.params };
}

function isPushMethod(method: string): boolean {
  return method.startsWith('tasks/pushNotificationConfig/');
}

function errorResponse(id: JsonRpcId, error: JsonRpcErrorObject) {
  return { jsonrpc: '2.0' as const, id, error };
}

function toErrorObject(error: unknown): JsonRpcErrorObject {
  if (A2aRpcError.isInstance(error)) return error.toErrorObject();
  if (InvalidArgumentError.isInstance(error)) {
    return { code: A2aErrorCode.invalidParams, message: `Invalid params: ${error.message}` };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: A2aErrorCode.internalError, message: `Internal error: ${message}` };
}

function sse(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    },
  });
}
