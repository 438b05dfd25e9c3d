import type { MemoryService } from '@adk/core';
import { Hono } from 'hono';

import type { ServerContext } from '../app/server-context';
import { httpError } from '../http/http-error';
import { readBody } from '../http/read-body';
import { updateMemoryRequestSchema } from '../http/schemas';
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

const count = (value: string | undefined, fallback: number) => {
  const n = Number(value ?? fallback);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
};

/**
 * `PATCH /apps/{app}/users/{user}/memory`: add a session's events to long-term memory.
 * `GET /apps/{app}/users/{user}/memories?limit=&offset=`: the user's memories, newest first.
 * `DELETE /apps/{app}/users/{user}/memories`: forget all of them (`?session_id=` one session's).
 * `DELETE /apps/{app}/users/{user}/memories/{id}`: forget one.
 */
export function memoryRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();
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
  routes.get('/apps/:app/users/:user/memories', async (c) => {
    const memory = listable(ctx.options.memoryService);
    const limit = count(c.req.query('limit'), 50);
    const offset = count(c.req.query('offset'), 0);
    if (limit === undefined || offset === undefined)
      throw httpError(400, '`limit` and `offset` must be non-negative integers.');
    const memories = await memory.listMemories({
      appName: c.req.param('app'),
      userId: c.req.param('user'),
      limit: Math.min(limit, 1000),
      offset,
    });
    return c.json({
      memories: memories.map((m) => ({
        id: m.id,
        kind: m.kind,
        text: m.text,
        author: m.author ?? null,
        session_id: m.sessionId ?? null,
        timestamp: m.timestamp,
        embedding_model: m.embeddingModel ?? null,
      })),
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
    return c.json({ deleted_count: deletedCount });
  });
  routes.delete('/apps/:app/users/:user/memories/:id', async (c) => {
    const memory = listable(ctx.options.memoryService);
    const deleted = await memory.deleteMemoriesById(
      { appName: c.req.param('app'), userId: c.req.param('user') },
      [c.req.param('id')],
    );
    if (deleted === 0) throw httpError(404, 'No such memory for this user.');
    return c.json({ deleted_count: deleted });
  });
  return routes;
}
