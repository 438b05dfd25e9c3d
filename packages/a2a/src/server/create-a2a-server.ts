import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';

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
import type { AgentCard } from '@a2a-js/sdk';
import {
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  UnauthenticatedUser,
  type PushNotificationStore,
  type TaskStore,
  type User,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler } from '@a2a-js/sdk/server/express';
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import express from 'express';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';

import { AdkAgentExecutor, type A2aUserIdResolver } from './adk-agent-executor';
import { buildAgentCard } from './agent-card';
import { BoundedTaskStore } from './bounded-task-store';
import { withWireJson } from './card-wire-form';
import { endpointResolver } from './endpoint-url';
import { invalidParamsAnswer } from './rpc-params';
import { WebhookPushSender, type WebhookPushOptions } from './webhook-push-sender';
import { authenticate, securityCardFields, type A2aSecurityOptions } from './security';

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
   * Fields of the A2A 1.0 agent card to set or override (`version`, `provider`, `skills`...).
   * `supportedInterfaces` defaults to this server's JSON-RPC and REST endpoints for protocol 1.0
   * and 0.3: see `publicUrl` and `basePath`.
   */
  agentCard?: Partial<AgentCard>;
  /** Path of the JSON-RPC endpoint (default `/`). */
  rpcPath?: string;
  /** Root path of the HTTP+JSON (REST) routes (default `/rest`); `false` serves no REST. */
  restPath?: string | false;
  /**
   * Where the gRPC transport is reached (`host:port`), when you serve it with `listenA2aGrpc` of
   * `@adk/a2a/grpc`: the card then lists a gRPC interface. Default: no gRPC.
   */
  grpcUrl?: string;
  /**
   * Path prefix this app is mounted under on the same origin, e.g. `/agents/travel` for
   * `parent.route('/agents/travel', a2aApp)`: the card's URLs become the request's origin +
   * `basePath` + the endpoint's path. It names where clients reach the app; it does not move its
   * routes (mounting does). Not with `publicUrl`.
   */
  basePath?: string;
  /**
   * Absolute URL clients reach this app's root at, when it differs from what the server sees,
   * e.g. behind a reverse proxy: `https://agents.example.com/travel`. The card's URLs are then
   * fixed, whatever the request's `Host` and scheme (forwarded headers are not trusted). Not
   * with `basePath`.
   */
  publicUrl?: string;
  /** The ADK user id of a request (default `A2A_USER_<contextId>`, or the authenticated user). */
  userId?: A2aUserIdResolver;
  /** Run settings of every run (default: not streamed, core's limits). */
  runConfig?: Partial<RunConfig>;
  /**
   * Where tasks live: any task store of the A2A SDK, e.g. the SQL one of {@link createA2aSqlStores}
   * (tasks survive a restart). Default: in memory, at most `maxTasks`.
   */
  taskStore?: TaskStore;
  /** Tasks kept by the default in-memory store (default 10,000; the oldest are forgotten first). */
  maxTasks?: number;
  /**
   * Push notifications (`tasks/pushNotificationConfig/*` and the `taskPushNotificationConfig` of
   * a message): `true`, or where configs live and how webhooks are called (signed when
   * `signingSecret` is set, retried with backoff). Default: not offered.
   */
  pushNotifications?: boolean | (WebhookPushOptions & { store?: PushNotificationStore });
  /** Credentials every protocol request must carry; published in the card. Default: none. */
  security?: A2aSecurityOptions;
  /** Largest request body accepted, in bytes (default 10 MiB). */
  maxBodyBytes?: number;
}

/** The Hono app of an A2A server, with the runner it serves. */
export type A2aServerApp = Hono & {
  readonly runner: Runner;
  /** The A2A SDK's request handler behind the routes (for a transport of your own). */
  readonly requestHandler: DefaultRequestHandler;
  /** The gRPC address the card announces (`grpcUrl`), if any. */
  readonly grpcUrl: string | undefined;
  /**
   * Check a request's headers against `security`: the authenticated user, an anonymous one when
   * the server requires nothing, `undefined` when the credentials are missing or wrong. Every
   * transport of the app uses it (`listenA2aGrpc` with the call's metadata).
   */
  authenticate(headers: Headers): Promise<User | undefined>;
  /** Abort the running tasks and close the runner (when the server built it). */
  close(): Promise<void>;
};

/** What the routes of one request know beyond the request itself. */
interface RequestScope {
  requestUrl: string;
  user: User;
}

const AGENT_CARD_PATHS = ['/.well-known/agent-card.json', '/.well-known/agent.json'];

/**
 * Serve an ADK agent over the A2A protocol 1.0 and 0.3, on the official A2A SDK: JSON-RPC at
 * `rpcPath` and HTTP+JSON (REST) under `restPath`, the version chosen per request by its
 * `A2A-Version` header (none means 0.3), and the agent card at `/.well-known/agent-card.json`
 * (and the older `/.well-known/agent.json`), in the shape the caller's version reads. Each A2A
 * `contextId` is an ADK session, created on first use; each message runs one turn as a task.
 * Mounted under a prefix or behind a proxy, pass `basePath` or `publicUrl` so the card names the
 * endpoints clients can reach. Serve it with `listenA2a` or `@hono/node-server` (the SDK's
 * transports run on Node's HTTP objects).
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
  const restPath = options.restPath === false ? undefined : (options.restPath ?? '/rest');
  const endpointUrl = endpointResolver({
    ...(options.basePath === undefined ? {} : { basePath: options.basePath }),
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
  });
  const ownsRunner = !options.runner;
  const runner = options.runner ?? buildRunner(options);
  const push = options.pushNotifications;
  const pushOptions = typeof push === 'object' ? push : {};
  const security = options.security;
  const cardFor = (requestUrl: string): AgentCard =>
    buildAgentCard(runner.agent, {
      jsonRpcUrl: endpointUrl(requestUrl, rpcPath),
      ...(restPath === undefined ? {} : { restUrl: endpointUrl(requestUrl, restPath) }),
      ...(options.grpcUrl === undefined ? {} : { grpcUrl: options.grpcUrl }),
      ...(security ? securityCardFields(security) : {}),
      ...options.agentCard,
      capabilities: {
        streaming: true,
        pushNotifications: Boolean(push),
        extensions: [],
        extendedAgentCard: false,
        ...options.agentCard?.capabilities,
      },
    });
  const executor = new AdkAgentExecutor({
    runner,
    ...(options.userId ? { userId: options.userId } : {}),
    ...(options.runConfig ? { runConfig: options.runConfig } : {}),
  });
  const pushStore = push ? (pushOptions.store ?? new InMemoryPushNotificationStore()) : undefined;
  const requestHandler = new DefaultRequestHandler(
    // The handler reads versions, bindings and capabilities from this card; URLs are per request.
    cardFor('http://127.0.0.1/'),
    options.taskStore ?? new BoundedTaskStore(options.maxTasks ?? 10_000),
    executor,
    undefined,
    pushStore,
    pushStore ? new WebhookPushSender(pushStore, pushOptions) : undefined,
  );

  const scope = new AsyncLocalStorage<RequestScope>();
  const userBuilder = async (): Promise<User> =>
    scope.getStore()?.user ?? new UnauthenticatedUser();
  const legacyCompat = { enabled: true };
  const protocol = express();
  const cardHandler = agentCardHandler({
    agentCardProvider: async () =>
      withWireJson(cardFor(scope.getStore()?.requestUrl ?? 'http://127.0.0.1/')),
    legacyCompat,
    cache: { maxAge: 0 },
  });
  for (const path of AGENT_CARD_PATHS) protocol.use(path, cardHandler);
  if (restPath !== undefined) {
    protocol.use(restPath, restHandler({ requestHandler, userBuilder, legacyCompat }));
  }
  protocol.use(rpcPath, jsonRpcHandler({ requestHandler, userBuilder, legacyCompat }));

  const authenticateHeaders = async (headers: Headers): Promise<User | undefined> => {
    if (!security) return new UnauthenticatedUser();
    const authenticated = await authenticate(security, headers);
    return authenticated && authenticatedUser(authenticated.userName);
  };

  /** A request refused before the SDK's routes, in the error shape of the transport it was for. */
  const refuse = (
    c: Context,
    refusal: { status: 400 | 413; rpcStatus: 200 | 413; rpcCode: number; message: string },
  ) =>
    restPath !== undefined && isUnder(subPath(c), restPath)
      ? c.json(
          { error: { code: refusal.status, status: 'INVALID_ARGUMENT', message: refusal.message } },
          refusal.status,
        )
      : c.json(
          { jsonrpc: '2.0', id: null, error: { code: refusal.rpcCode, message: refusal.message } },
          refusal.rpcStatus,
        );

  const app = new Hono();
  const maxSize = options.maxBodyBytes ?? 10 * 1024 * 1024;
  app.all(
    '*',
    bodyLimit({
      maxSize,
      onError: (c) =>
        refuse(c, {
          status: 413,
          rpcStatus: 413,
          rpcCode: A2A_ERROR_CODE.INVALID_REQUEST,
          message: `Request body larger than ${maxSize} bytes.`,
        }),
    }),
    async (c) => {
      const node = nodeObjects(c);
      const path = subPath(c);
      let user: User = new UnauthenticatedUser();
      if (security && !AGENT_CARD_PATHS.includes(path)) {
        const authenticated = await authenticateHeaders(c.req.raw.headers);
        if (!authenticated) {
          return c.json({ error: 'Authentication required: see the agent card.' }, 401, {
            'www-authenticate': security.bearer !== undefined ? 'Bearer' : 'ApiKey',
          });
        }
        user = authenticated;
      }
      let body: unknown;
      if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
        // Read here, under the body limit, and handed to the SDK's routes already parsed.
        const text = await c.req.text();
        if (text !== '') {
          try {
            body = JSON.parse(text);
            (node.incoming as { body?: unknown }).body = body;
          } catch {
            // What the SDK's routes answer to a body that is not JSON.
            return refuse(c, {
              status: 400,
              rpcStatus: 200,
              rpcCode: A2A_ERROR_CODE.PARSE_ERROR,
              message: 'Invalid JSON payload.',
            });
          }
        }
      }
      const invalid = samePath(path, rpcPath) ? invalidParamsAnswer(body) : undefined;
      if (invalid !== undefined) return c.json(invalid);
      const url = new URL(c.req.url);
      node.incoming.url = `${path}${url.search}`;
      await scope.run({ requestUrl: c.req.url, user }, () => serveWith(protocol, node));
      return RESPONSE_ALREADY_SENT;
    },
  );

  return Object.assign(app, {
    runner,
    requestHandler,
    grpcUrl: options.grpcUrl,
    authenticate: authenticateHeaders,
    async close(): Promise<void> {
      executor.abortAll();
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

function authenticatedUser(userName: string): User {
  return {
    get isAuthenticated() {
      return true;
    },
    get userName() {
      return userName;
    },
  };
}

interface NodeObjects {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

/** The Node request and response under Hono (`@hono/node-server` puts them in `c.env`). */
function nodeObjects(c: Context): NodeObjects {
  const env = c.env as Partial<NodeObjects> | undefined;
  if (!env?.incoming || !env.outgoing) {
    throw new InvalidArgumentError({
      message:
        'The A2A server runs on Node HTTP objects: serve it with listenA2a or @hono/node-server.',
      argument: 'app',
    });
  }
  return { incoming: env.incoming, outgoing: env.outgoing };
}

function isUnder(path: string, prefix: string): boolean {
  const root = prefix.replace(/\/+$/, '');
  return path === root || path.startsWith(`${root}/`) || path.startsWith(`${root}:`);
}

/** The request's path within this app, however deep it is mounted. */
function samePath(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

function subPath(c: Context): string {
  const prefix = c.req.routePath.replace(/\/?\*$/, '');
  const path = c.req.path.slice(prefix.length);
  return path.startsWith('/') ? path : `/${path}`;
}

/** Let the Express app answer on the Node objects; resolves once the response has finished. */
function serveWith(protocol: express.Express, node: NodeObjects): Promise<void> {
  return new Promise((resolve) => {
    node.outgoing.once('close', () => resolve());
    node.outgoing.once('finish', () => resolve());
    protocol(node.incoming as express.Request, node.outgoing as express.Response, () => {
      if (!node.outgoing.headersSent) {
        node.outgoing.statusCode = 404;
        node.outgoing.setHeader('content-type', 'application/json');
        node.outgoing.end(JSON.stringify({ error: 'Not found.' }));
      }
    });
  });
}
