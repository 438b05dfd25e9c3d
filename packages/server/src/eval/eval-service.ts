import {
  EvalNotFoundError,
  InMemoryEvalSetResultsStore,
  InMemoryEvalSetsStore,
  MetricRegistry,
  evalCaseFromSession,
  evaluateEvalSet,
  type EvalCaseResult,
  type EvalMetric,
  type EvalSetResultsStore,
  type EvalSetsStore,
  type EvalTarget,
} from '@adk/eval';
import { SessionNotFoundError } from '@adk/core';

import type { ServerContext } from '../app/server-context';
import type { EvalServerOptions } from './eval-server-options';

/** What the eval routes do, over the server's apps, session service and eval stores. */
export class EvalService {
  readonly sets: EvalSetsStore;
  readonly results: EvalSetResultsStore;
  readonly registry: MetricRegistry;

  constructor(
    private readonly ctx: ServerContext,
    private readonly options: EvalServerOptions = {},
  ) {
    this.sets = options.sets ?? new InMemoryEvalSetsStore();
    this.results = options.results ?? new InMemoryEvalSetResultsStore();
    this.registry = options.registry ?? new MetricRegistry();
  }

  /** Add a stored session to an eval set as a new case. */
  async addSession(
    appName: string,
    evalSetId: string,
    request: { evalId: string; sessionId: string; userId: string },
  ): Promise<void> {
    const session = await this.ctx.sessionService.getSession({
      appName,
      userId: request.userId,
      sessionId: request.sessionId,
    });
    if (!session)
      throw new SessionNotFoundError({
        appName,
        userId: request.userId,
        sessionId: request.sessionId,
      });
    await this.sets.addEvalCase(appName, evalSetId, evalCaseFromSession(session, request.evalId));
  }

  /** Run cases of an eval set against the app, store the result, and return the case results. */
  async run(
    appName: string,
    evalSetId: string,
    request: { caseIds: readonly string[] | undefined; metrics: readonly EvalMetric[] },
    signal?: AbortSignal,
  ): Promise<EvalCaseResult[]> {
    const app = this.ctx.app(appName);
    const evalSet = await this.sets.getEvalSet(appName, evalSetId);
    if (!evalSet)
      throw new EvalNotFoundError({ kind: 'evalSet', id: evalSetId, where: `app ${appName}` });
    const target: EvalTarget = {
      appName,
      sessionService: this.ctx.sessionService,
      run: (turn) =>
        app.runner.run({
          userId: turn.userId,
          sessionId: turn.sessionId,
          newMessage: turn.newMessage,
          ...(turn.signal ? { signal: turn.signal } : {}),
        }),
    };
    const outcome = await evaluateEvalSet({
      target,
      evalSet,
      metrics: request.metrics,
      registry: this.registry,
      ...(request.caseIds && request.caseIds.length > 0 ? { caseIds: request.caseIds } : {}),
      ...(this.options.judgeModel ? { judgeModel: this.options.judgeModel } : {}),
      ...(this.options.userSimulator ? { userSimulator: this.options.userSimulator } : {}),
      ...(this.options.concurrency ? { concurrency: this.options.concurrency } : {}),
      ...(signal ? { signal } : {}),
    });
    await this.results.saveEvalSetResult(appName, evalSetId, outcome.evalCaseResults);
    return outcome.evalCaseResults;
  }
}
