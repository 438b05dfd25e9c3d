import { Hono } from 'hono';
import { z } from 'zod';

import type { ServerContext } from '../app/server-context';
import type { ServerJob, ServerJobStore } from '../app/server-job-store';
import { httpError } from '../http/http-error';
import { readBody } from '../http/read-body';
import { contentSchema } from '../http/schemas';
import { JobWatchHub, jobStream } from './job-watch';

export type { ServerJob, ServerJobStore };

const enqueueSchema = z.object({
  new_message: contentSchema,
  session_id: z.string().min(1).optional(),
  queue: z.string().min(1).optional(),
  priority: z.number().int().optional(),
  // Beyond a Date's range (8.64e15 ms) the job would never run: the store refuses it (400).
  run_in_ms: z.number().nonnegative().optional(),
});

function jobsOf(ctx: ServerContext): ServerJobStore {
  const jobs = ctx.options.jobStore;
  if (!jobs) throw httpError(501, 'Background jobs are not configured (jobStore).');
  return jobs;
}

/** The states a job can be in (`@adk/jobs`' `JobState`), the values `?state=` accepts. */
const JOB_STATES = ['pending', 'running', 'completed', 'dead', 'cancelled'];

/** The app of a job route, known to the server (404 otherwise). */
function knownApp(ctx: ServerContext, app: string): string {
  if (!Object.hasOwn(ctx.options.apps, app)) throw httpError(404, `App not found: ${app}`);
  return app;
}

/** At most this many jobs of an app are read per list (oldest first, as the stores list). */
const LIST_LIMIT = 1000;

/**
 * Background runs (`@adk/jobs`), when the server has a `jobStore`:
 * - `POST /apps/{app}/users/{user}/jobs` enqueues a run (`new_message`, optional `session_id`,
 *   `queue`, `priority`, `run_in_ms`) and answers 201 with the job;
 * - `GET /apps/{app}/users/{user}/jobs[?state=]` lists the user's jobs of the app (404 for an
 *   unknown app, 400 for a `state` that is not a job state);
 * - `GET /apps/{app}/users/{user}/jobs/stream` is a `text/event-stream` of those jobs: one frame
 *   with the whole list (`reset: true`), then one frame per change (`jobs` changed, `removed`
 *   ids), pushed at once for changes made in this process and found within
 *   `jobWatchIntervalMs` for changes made elsewhere;
 * - `GET /apps/{app}/users/{user}/jobs/{id}` shows one job's state (and result once completed);
 * - `DELETE /apps/{app}/users/{user}/jobs/{id}` cancels it.
 * A worker (`adk worker`, or a `JobWorker` in this or another process) runs the jobs.
 */
export function jobRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();
  const hub = new JobWatchHub(ctx.options.jobChanges);
  const listFor = async (app: string, user: string, state?: string): Promise<ServerJob[]> => {
    const jobs = await jobsOf(ctx).list({
      appName: app,
      ...(state ? { state } : {}),
      limit: LIST_LIMIT,
    });
    return jobs.filter((job) => job.userId === user);
  };
  const owned = async (app: string, user: string, id: string): Promise<ServerJob> => {
    const job = await jobsOf(ctx).get(id);
    if (!job || job.appName !== app || job.userId !== user)
      throw httpError(404, `Job not found: ${id}`);
    return job;
  };
  routes.post('/apps/:app/users/:user/jobs', async (c) => {
    const app = knownApp(ctx, c.req.param('app'));
    const body = await readBody(c, enqueueSchema);
    const { job } = await jobsOf(ctx).enqueue({
      appName: app,
      userId: c.req.param('user'),
      message: body.new_message,
      ...(body.session_id ? { sessionId: body.session_id } : {}),
      ...(body.queue ? { queue: body.queue } : {}),
      ...(body.priority === undefined ? {} : { priority: body.priority }),
      ...(body.run_in_ms === undefined ? {} : { runIn: body.run_in_ms }),
    });
    hub.notify(app);
    return c.json(job, 201);
  });
  routes.get('/apps/:app/users/:user/jobs', async (c) => {
    const app = knownApp(ctx, c.req.param('app'));
    const state = c.req.query('state');
    if (state !== undefined && !JOB_STATES.includes(state))
      throw httpError(400, `Invalid state "${state}": use one of ${JOB_STATES.join(', ')}.`);
    return c.json(await listFor(app, c.req.param('user'), state));
  });
  routes.get('/apps/:app/users/:user/jobs/stream', (c) => {
    const app = knownApp(ctx, c.req.param('app'));
    const user = c.req.param('user');
    jobsOf(ctx); // 501 before the stream starts
    const body = jobStream({
      appName: app,
      list: () => listFor(app, user),
      hub,
      intervalMs: ctx.options.jobWatchIntervalMs ?? (ctx.options.jobChanges ? 30_000 : 1000),
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
  routes.get('/apps/:app/users/:user/jobs/:id', async (c) =>
    c.json(await owned(c.req.param('app'), c.req.param('user'), c.req.param('id'))),
  );
  routes.delete('/apps/:app/users/:user/jobs/:id', async (c) => {
    await owned(c.req.param('app'), c.req.param('user'), c.req.param('id'));
    const cancelled = await jobsOf(ctx).cancel(c.req.param('id'));
    if (!cancelled) throw httpError(409, 'The job has already finished.');
    hub.notify(cancelled.appName);
    return c.json(cancelled);
  });
  return routes;
}
