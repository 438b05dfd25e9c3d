import { EvalExistsError, EvalNotFoundError } from '../errors';
import { createEvalSetResult } from '../runner/eval-set-result';
import type { EvalCase, EvalCaseResult, EvalSet, EvalSetResult } from '../schema';
import type { EvalSetInit, EvalSetResultsStore, EvalSetsStore } from './eval-stores';

const copy = <T>(value: T): T => structuredClone(value);

/** Eval sets kept in memory (tests, servers without a folder). Returns copies, never its own objects. */
export class InMemoryEvalSetsStore implements EvalSetsStore {
  readonly #sets = new Map<string, EvalSet>();

  #key(appName: string, evalSetId: string): string {
    return `${appName}\u0000${evalSetId}`;
  }

  #set(appName: string, evalSetId: string): EvalSet {
    const set = this.#sets.get(this.#key(appName, evalSetId));
    if (!set)
      throw new EvalNotFoundError({ kind: 'evalSet', id: evalSetId, where: `app ${appName}` });
    return set;
  }

  createEvalSet(appName: string, evalSetId: string, init: EvalSetInit = {}): Promise<EvalSet> {
    const key = this.#key(appName, evalSetId);
    if (this.#sets.has(key))
      return Promise.reject(new EvalExistsError({ kind: 'evalSet', id: evalSetId }));
    const set: EvalSet = {
      evalSetId,
      name: init.name ?? evalSetId,
      ...(init.description === undefined ? {} : { description: init.description }),
      evalCases: copy(init.evalCases ?? []),
      creationTimestamp: init.creationTimestamp ?? Date.now() / 1000,
    };
    this.#sets.set(key, set);
    return Promise.resolve(copy(set));
  }

  getEvalSet(appName: string, evalSetId: string): Promise<EvalSet | undefined> {
    const set = this.#sets.get(this.#key(appName, evalSetId));
    return Promise.resolve(set ? copy(set) : undefined);
  }

  listEvalSets(appName: string): Promise<string[]> {
    const prefix = `${appName}\u0000`;
    return Promise.resolve(
      [...this.#sets.keys()]
        .filter((k) => k.startsWith(prefix))
        .map((k) => k.slice(prefix.length))
        .sort(),
    );
  }

  async deleteEvalSet(appName: string, evalSetId: string): Promise<void> {
    this.#set(appName, evalSetId);
    this.#sets.delete(this.#key(appName, evalSetId));
  }

  async addEvalCase(appName: string, evalSetId: string, evalCase: EvalCase): Promise<void> {
    const set = this.#set(appName, evalSetId);
    if (set.evalCases.some((c) => c.evalId === evalCase.evalId))
      throw new EvalExistsError({ kind: 'evalCase', id: evalCase.evalId });
    set.evalCases.push(copy(evalCase));
  }

  async getEvalCase(
    appName: string,
    evalSetId: string,
    evalId: string,
  ): Promise<EvalCase | undefined> {
    const found = (await this.getEvalSet(appName, evalSetId))?.evalCases.find(
      (c) => c.evalId === evalId,
    );
    return found;
  }

  async updateEvalCase(appName: string, evalSetId: string, evalCase: EvalCase): Promise<void> {
    const set = this.#set(appName, evalSetId);
    const index = set.evalCases.findIndex((c) => c.evalId === evalCase.evalId);
    if (index < 0)
      throw new EvalNotFoundError({
        kind: 'evalCase',
        id: evalCase.evalId,
        where: `eval set ${evalSetId}`,
      });
    set.evalCases[index] = copy(evalCase);
  }

  async deleteEvalCase(appName: string, evalSetId: string, evalId: string): Promise<void> {
    const set = this.#set(appName, evalSetId);
    const index = set.evalCases.findIndex((c) => c.evalId === evalId);
    if (index < 0)
      throw new EvalNotFoundError({ kind: 'evalCase', id: evalId, where: `eval set ${evalSetId}` });
    set.evalCases.splice(index, 1);
  }
}

/** Eval results kept in memory, at most `maxResults` per app (oldest dropped first; default 100). */
export class InMemoryEvalSetResultsStore implements EvalSetResultsStore {
  readonly #results = new Map<string, Map<string, EvalSetResult>>();
  readonly #max: number;

  constructor(options: { maxResults?: number } = {}) {
    this.#max = options.maxResults ?? 100;
  }

  saveEvalSetResult(
    appName: string,
    evalSetId: string,
    evalCaseResults: EvalCaseResult[],
  ): Promise<EvalSetResult> {
    const result = createEvalSetResult(appName, evalSetId, evalCaseResults);
    const app = this.#results.get(appName) ?? new Map<string, EvalSetResult>();
    this.#results.set(appName, app);
    app.set(result.evalSetResultId, copy(result));
    while (app.size > this.#max) app.delete(app.keys().next().value!);
    return Promise.resolve(result);
  }

  getEvalSetResult(appName: string, evalSetResultId: string): Promise<EvalSetResult | undefined> {
    const result = this.#results.get(appName)?.get(evalSetResultId);
    return Promise.resolve(result ? copy(result) : undefined);
  }

  listEvalSetResults(appName: string): Promise<string[]> {
    return Promise.resolve([...(this.#results.get(appName)?.keys() ?? [])].sort());
  }
}
