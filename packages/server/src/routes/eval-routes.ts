import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';

import {
  DEFAULT_EVAL_CONFIG,
  EVAL_CASE_RESULT_SPEC,
  EVAL_CASE_SPEC,
  EVAL_METRIC_SPEC,
  EvalExistsError,
  EvalFileError,
  EvalNotFoundError,
  UnknownMetricError,
  evalCaseSchema,
  evalMetricSchema,
  metricsFromConfig,
  parseEvalSet,
  parseJsonText,
  parseModel,
  serializeEvalSet,
  serializeEvalSetResult,
  toWireKeys,
  type EvalCaseResult,
  type KeySpec,
} from '@adk/eval';

import type { ServerContext } from '../app/server-context';
import { EvalService } from '../eval/eval-service';
import { httpError } from '../http/http-error';

const addSessionSchema = z.object({
  evalId: z.string().min(1),
  sessionId: z.string(),
  userId: z.string(),
});
const ADD_SESSION_SPEC: KeySpec = { fields: { evalId: 'leaf', sessionId: 'leaf', userId: 'leaf' } };
const runSchema = z.object({
  evalIds: z.array(z.string()).optional(),
  evalCaseIds: z.array(z.string()).optional(),
  evalMetrics: z.array(evalMetricSchema).optional(),
});
const RUN_SPEC: KeySpec = {
  fields: { evalIds: 'leaf', evalCaseIds: 'leaf', evalMetrics: EVAL_METRIC_SPEC },
};
const CREATE_SPEC: KeySpec = { fields: { evalSet: 'opaque' } };

async function body(c: Context): Promise<unknown> {
  const text = await c.req.text();
  return text.trim() === '' ? {} : parseJsonText(text, 'request body');
}

/** Eval errors as HTTP answers: missing 404, taken 409, bad input 400. */
function evalErrors(error: unknown): never {
  if (EvalNotFoundError.isInstance(error)) throw httpError(404, error.message, error.code);
  if (EvalExistsError.isInstance(error)) throw httpError(409, error.message, error.code);
  if (EvalFileError.isInstance(error) || UnknownMetricError.isInstance(error)) {
    throw httpError(400, error.message, error.code);
  }
  throw error;
}

/** Python's `RunEvalResult`: a case result without its session. */
function runEvalResult(result: EvalCaseResult): unknown {
  const { sessionDetails: _session, ...rest } = result;
  return toWireKeys(rest, EVAL_CASE_RESULT_SPEC, 'alias');
}

/**
 * The evaluation routes of the ADK API server, under both spellings the web UIs use (`/apps/<app>`
 * and `/dev/apps/<app>`; the older `eval_sets`/`evals`/`run_eval`/`eval_results` paths and the newer
 * `eval-sets`/`eval-cases`/`run`/`eval-results` ones), answering as Python ADK's server does.
 */
export function evalRoutes(ctx: ServerContext): Hono {
  const service = new EvalService(ctx, ctx.options.evals);
  const routes = new Hono();
  const app = (c: Context) => {
    const name = c.req.param('app')!;
    ctx.app(name);
    return name;
  };
  const guarded =
    (handler: (c: Context, appName: string) => Promise<Response>) =>
    async (c: Context): Promise<Response> => {
      const appName = app(c);
      try {
        return await handler(c, appName);
      } catch (error) {
        return evalErrors(error);
      }
    };
  const getSet = async (appName: string, id: string) => {
    const set = await service.sets.getEvalSet(appName, id);
    if (!set) throw new EvalNotFoundError({ kind: 'evalSet', id, where: `app ${appName}` });
    return set;
  };
  const getCase = async (appName: string, setId: string, caseId: string) => {
    const found = await service.sets.getEvalCase(appName, setId, caseId);
    if (!found)
      throw new EvalNotFoundError({ kind: 'evalCase', id: caseId, where: `eval set ${setId}` });
    return found;
  };
  const addSession = async (c: Context, appName: string) => {
    const request = parseModel(addSessionSchema, ADD_SESSION_SPEC, await body(c), 'request body');
    await service.addSession(appName, c.req.param('set')!, request);
    return c.json({});
  };
  const updateCase = async (c: Context, appName: string) => {
    const caseId = c.req.param('case')!;
    const json = (await body(c)) as Record<string, unknown>;
    const evalCase = parseModel(
      evalCaseSchema,
      EVAL_CASE_SPEC,
      { ...json, evalId: caseId, eval_id: undefined },
      'request body',
    );
    await service.sets.updateEvalCase(appName, c.req.param('set')!, evalCase);
    return c.json({});
  };
  const deleteCase = async (c: Context, appName: string) => {
    await service.sets.deleteEvalCase(appName, c.req.param('set')!, c.req.param('case')!);
    return c.json({});
  };
  const run = async (c: Context, appName: string) => {
    const request = parseModel(runSchema, RUN_SPEC, await body(c), 'request body');
    const metrics = request.evalMetrics ?? metricsFromConfig(DEFAULT_EVAL_CONFIG);
    return service.run(
      appName,
      c.req.param('set')!,
      {
        caseIds: request.evalCaseIds ?? request.evalIds,
        metrics,
      },
      c.req.raw.signal,
    );
  };

  for (const prefix of ['/apps/:app', '/dev/apps/:app']) {
    // Older spellings (what the ADK web UI calls).
    routes.get(
      `${prefix}/eval_sets`,
      guarded(async (c, a) => c.json(await service.sets.listEvalSets(a))),
    );
    routes.post(
      `${prefix}/eval_sets/:set`,
      guarded(async (c, a) =>
        c.json(serializeEvalSet(await service.sets.createEvalSet(a, c.req.param('set')!), 'alias')),
      ),
    );
    routes.get(
      `${prefix}/eval_sets/:set`,
      guarded(async (c, a) =>
        c.json(serializeEvalSet(await getSet(a, c.req.param('set')!), 'alias')),
      ),
    );
    routes.delete(
      `${prefix}/eval_sets/:set`,
      guarded(
        async (c, a) => (await service.sets.deleteEvalSet(a, c.req.param('set')!), c.json({})),
      ),
    );
    routes.post(`${prefix}/eval_sets/:set/add_session`, guarded(addSession));
    routes.get(
      `${prefix}/eval_sets/:set/evals`,
      guarded(async (c, a) =>
        c.json((await getSet(a, c.req.param('set')!)).evalCases.map((e) => e.evalId).sort()),
      ),
    );
    routes.get(
      `${prefix}/eval_sets/:set/evals/:case`,
      guarded(async (c, a) =>
        c.json(
          toWireKeys(
            await getCase(a, c.req.param('set')!, c.req.param('case')!),
            EVAL_CASE_SPEC,
            'alias',
          ),
        ),
      ),
    );
    routes.put(`${prefix}/eval_sets/:set/evals/:case`, guarded(updateCase));
    routes.delete(`${prefix}/eval_sets/:set/evals/:case`, guarded(deleteCase));
    routes.post(
      `${prefix}/eval_sets/:set/run_eval`,
      guarded(async (c, a) => c.json((await run(c, a)).map(runEvalResult))),
    );
    routes.get(
      `${prefix}/eval_results`,
      guarded(async (c, a) => c.json(await service.results.listEvalSetResults(a))),
    );
    routes.get(
      `${prefix}/eval_results/:result`,
      guarded(async (c, a) => c.json(await resultOf(a, c.req.param('result')!))),
    );

    // Newer spellings.
    routes.get(
      `${prefix}/eval-sets`,
      guarded(async (c, a) => c.json({ evalSetIds: await service.sets.listEvalSets(a) })),
    );
    routes.post(
      `${prefix}/eval-sets`,
      guarded(async (c, a) => {
        const { evalSet: raw } = parseModel(
          z.object({ evalSet: z.unknown() }),
          CREATE_SPEC,
          await body(c),
          'request body',
        );
        const given = parseEvalSet(raw, 'request body (eval_set)');
        const created = await service.sets.createEvalSet(a, given.evalSetId, {
          ...(given.name ? { name: given.name } : {}),
          ...(given.description ? { description: given.description } : {}),
          evalCases: given.evalCases,
        });
        return c.json(serializeEvalSet(created, 'alias'));
      }),
    );
    routes.get(
      `${prefix}/eval-sets/:set`,
      guarded(async (c, a) =>
        c.json(serializeEvalSet(await getSet(a, c.req.param('set')!), 'alias')),
      ),
    );
    routes.delete(
      `${prefix}/eval-sets/:set`,
      guarded(
        async (c, a) => (await service.sets.deleteEvalSet(a, c.req.param('set')!), c.json({})),
      ),
    );
    routes.post(`${prefix}/eval-sets/:set/add-session`, guarded(addSession));
    routes.get(
      `${prefix}/eval-sets/:set/eval-cases/:case`,
      guarded(async (c, a) =>
        c.json(
          toWireKeys(
            await getCase(a, c.req.param('set')!, c.req.param('case')!),
            EVAL_CASE_SPEC,
            'alias',
          ),
        ),
      ),
    );
    routes.put(`${prefix}/eval-sets/:set/eval-cases/:case`, guarded(updateCase));
    routes.delete(`${prefix}/eval-sets/:set/eval-cases/:case`, guarded(deleteCase));
    routes.post(
      `${prefix}/eval-sets/:set/run`,
      guarded(async (c, a) => c.json({ runEvalResults: (await run(c, a)).map(runEvalResult) })),
    );
    routes.get(
      `${prefix}/eval-results`,
      guarded(async (c, a) =>
        c.json({ evalResultIds: await service.results.listEvalSetResults(a) }),
      ),
    );
    routes.get(
      `${prefix}/eval-results/:result`,
      guarded(async (c, a) => c.json(await resultOf(a, c.req.param('result')!))),
    );
    routes.get(
      `${prefix}/metrics-info`,
      guarded(async (c) => c.json({ metricsInfo: service.registry.metricsInfo() })),
    );
  }

  async function resultOf(appName: string, id: string): Promise<unknown> {
    const result = await service.results.getEvalSetResult(appName, id);
    if (!result)
      throw new EvalNotFoundError({ kind: 'evalSetResult', id, where: `app ${appName}` });
    return serializeEvalSetResult(result, 'alias');
  }
  return routes;
}
