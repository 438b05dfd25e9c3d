import type { MemoryService } from '@adk/core';
import { Hono, type Context } from 'hono';

import type { ServerContext } from '../app/server-context';
import { httpError } from '../http/http-error';
import { readBody } from '../http/read-body';
import { updateMemoryRequestSchema } from '../http/schemas';
import { JobWatchHub, jobStream } from './job-watch';
import { loadSession } from './session-routes';

/** One memory as the list route sends it (snake_case, times in milliseconds). */
interface ListedMemory {
  id: string;
  kind: string;
  text: string;
  author?: string | undefined;
  sessionId?: string | undefined;
  timestamp: number;
  embeddingModel?: string | undefined;
}

/**
 * What the memory routes need beyond `MemoryService`: `SemanticMemoryService` of `@adk/memory`
 * has both methods (any service with them works).
 */
interface ListableMemoryService extends MemoryService {
  listMemories(request: {
    appName: string;
    userId: string;
    limit?: number;
    offset?: number;
  }): Promise<ListedMemory[]>;
  deleteMemoriesById(
    scope: { appName: string; userId: string },
    ids: readonly string[],
  ): Promise<number>;
}

function listable(memory: MemoryService | undefined): ListableMemoryService {
  if (!memory) throw httpError(400, 'Memory service is not configured.');
  if (typeof (memory as Partial<ListableMemoryService>).listMemories !== 'function')
    throw httpError(501, 'This memory service cannot list memories (use SemanticMemoryService).');
  return memory as ListableMemoryService;
}

/** A memory as the routes send it (snake_case, times in milliseconds). */
const wireMemory = (m: ListedMemory) => ({
  id: m.id,
  kind: m.kind,
  text: m.text,
  author: m.author ?? null,
  session_id: m.sessionId ?? null,
  timestamp: m.timestamp,
  embedding_model: m.embeddingModel ?? null,
});

const count = (value: string | undefined, fallback: number) => {
  const n = Number(value ?? fallback);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
};

/**
 * `PATCH /apps/{app}/users/{user}/memory`: add a session's events to long-term memory.
 * `GET /apps/{app}/users/{user}/memories?limit=&offset=`: the user's memories, newest first.
 * `DELETE /apps/{app}/users/{user}/memories`: forget all of them (`?session_id=` one session's).
 * `DELETE /apps/{app}/users/{user}/memories/{id}`: forget one.
 * `GET /apps/{app}/users/{user}/memories/stream`: a `text/event-stream` of the listed memories:
 * the whole list first (`reset: true`, `memories`), then one frame per change (`memories` new or
 * changed, `removed` ids), found within `memoryWatchIntervalMs` whoever made it (a background
 * extraction, a tool, another process), at once for deletions through these routes.
 */
export function memoryRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();
  const hub = new JobWatchHub();
  routes.patch('/apps/:app/users/:user/memory', async (c) => {
    const memory = ctx.options.memoryService;
    if (!memory) throw httpError(400, 'Memory service is not configured.');
    const { session_id: sessionId } = await readBody(c, updateMemoryRequestSchema);
    const session = await loadSession(ctx, {
      app: c.req.param('app'),
      user: c.req.param('user'),
      session: sessionId,
    });
    await memory.addSessionToMemory(session);
    return c.json(null);
  });
  const page = (c: Context) => {
    const limit = count(c.req.query('limit'), 50);
    const offset = count(c.req.query('offset'), 0);
    if (limit === undefined || offset === undefined)
      throw httpError(400, '`limit` and `offset` must be non-negative integers.');
    const memory = listable(ctx.options.memoryService);
    const request = {
      appName: c.req.param('app')!,
      userId: c.req.param('user')!,
      limit: Math.min(limit, 1000),
      offset,
    };
    return async () => (await memory.listMemories(request)).map(wireMemory);
  };
  routes.get('/apps/:app/users/:user/memories', async (c) => c.json({ memories: await page(c)() }));
  routes.get('/apps/:app/users/:user/memories/stream', (c) => {
    const list = page(c); // 400 or 501 before the stream starts
    const body = jobStream({
      appName: c.req.param('app'),
      list,
      key: 'memories',
      hub,
      intervalMs: ctx.options.memoryWatchIntervalMs ?? 1000,
      keepAliveMs: ctx.options.sseKeepAliveMs ?? 15_000,
    });
    return new Response(body, {
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
      },
    });
  });
  routes.delete('/apps/:app/users/:user/memories', async (c) => {
    const memory = ctx.options.memoryService;
    if (!memory) throw httpError(400, 'Memory service is not configured.');
    if (!memory.deleteMemories) throw httpError(501, 'This memory service cannot delete memories.');
    const sessionId = c.req.query('session_id');
    const { deletedCount } = await memory.deleteMemories({
      appName: c.req.param('app'),
      userId: c.req.param('user'),
      ...(sessionId ? { sessionId } : {}),
    });
    hub.notify(c.req.param('app'));
    return c.json({ deleted_count: deletedCount });
  });
  routes.delete('/apps/:app/users/:user/memories/:id', async (c) => {
    const memory = listable(ctx.options.memoryService);
    const deleted = await memory.deleteMemoriesById(
      { appName: c.req.param('app'), userId: c.req.param('user') },
      [c.req.param('id')],
    );
    if (deleted === 0) throw httpError(404, 'No such memory for this user.');
    hub.notify(c.req.param('app'));
    return c.json({ deleted_count: deleted });
  });
  return routes;
}
