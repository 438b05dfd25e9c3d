import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { InvalidArgumentError } from '@adk/core';

import { EvalExistsError, EvalNotFoundError } from '../errors';
import { EVAL_SET_FILE_SUFFIX, loadEvalSetFile, serializeEvalSet } from '../formats/eval-set-file';
import type { EvalCase, EvalSet } from '../schema';
import { isSafeId, type EvalSetInit, type EvalSetsStore } from './eval-stores';

function checkId(kind: string, id: string): void {
  if (!isSafeId(id)) {
    throw new InvalidArgumentError({
      message: `Invalid ${kind} "${id}": use letters, digits, "_", "-" and "." only.`,
      argument: kind,
    });
  }
}

/**
 * Eval sets as files, where Python ADK keeps them: `<agentsDir>/<app>/<evalSetId>.evalset.json`,
 * written in its snake_case spelling. Writes go through a temporary file and a rename, so a
 * reader never sees half a file.
 */
export class LocalEvalSetsStore implements EvalSetsStore {
  readonly #agentsDir: string;
  /** One write at a time per file, so concurrent case additions are not lost. */
  readonly #locks = new Map<string, Promise<unknown>>();

  constructor(agentsDir: string) {
    this.#agentsDir = agentsDir;
  }

  /** The file of an eval set. */
  pathOf(appName: string, evalSetId: string): string {
    checkId('app name', appName);
    checkId('evalSetId', evalSetId);
    return join(this.#agentsDir, appName, `${evalSetId}${EVAL_SET_FILE_SUFFIX}`);
  }

  async #write(path: string, evalSet: EvalSet): Promise<void> {
    await mkdir(join(path, '..'), { recursive: true });
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, `${JSON.stringify(serializeEvalSet(evalSet, 'snake'), null, 2)}\n`);
    await rename(temporary, path);
  }

  async #update<T>(appName: string, evalSetId: string, change: (set: EvalSet) => T): Promise<T> {
    const path = this.pathOf(appName, evalSetId);
    const previous = this.#locks.get(path) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const set = await this.getEvalSet(appName, evalSetId);
        if (!set)
          throw new EvalNotFoundError({ kind: 'evalSet', id: evalSetId, where: `app ${appName}` });
        const result = change(set);
        await this.#write(path, set);
        return result;
      });
    this.#locks.set(path, next);
    try {
      return await next;
    } finally {
      if (this.#locks.get(path) === next) this.#locks.delete(path);
    }
  }

  async createEvalSet(
    appName: string,
    evalSetId: string,
    init: EvalSetInit = {},
  ): Promise<EvalSet> {
    const path = this.pathOf(appName, evalSetId);
    if (existsSync(path)) throw new EvalExistsError({ kind: 'evalSet', id: evalSetId });
    const evalSet: EvalSet = {
      ...(init.description === undefined ? {} : { description: init.description }),
      evalSetId,
      name: init.name ?? evalSetId,
      evalCases: init.evalCases ?? [],
      creationTimestamp: init.creationTimestamp ?? Date.now() / 1000,
    };
    await this.#write(path, evalSet);
    return evalSet;
  }

  async getEvalSet(appName: string, evalSetId: string): Promise<EvalSet | undefined> {
    const path = this.pathOf(appName, evalSetId);
    if (!existsSync(path)) return undefined;
    return loadEvalSetFile(path);
  }

  async listEvalSets(appName: string): Promise<string[]> {
    checkId('app name', appName);
    const dir = join(this.#agentsDir, appName);
    if (!existsSync(dir)) return [];
    return (await readdir(dir))
      .filter((file) => file.endsWith(EVAL_SET_FILE_SUFFIX))
      .map((file) => file.slice(0, -EVAL_SET_FILE_SUFFIX.length))
      .sort();
  }

  async deleteEvalSet(appName: string, evalSetId: string): Promise<void> {
    const path = this.pathOf(appName, evalSetId);
    if (!existsSync(path))
      throw new EvalNotFoundError({ kind: 'evalSet', id: evalSetId, where: `app ${appName}` });
    await rm(path);
  }

  async addEvalCase(appName: string, evalSetId: string, evalCase: EvalCase): Promise<void> {
    checkId('evalId', evalCase.evalId);
    await this.#update(appName, evalSetId, (set) => {
      if (set.evalCases.some((c) => c.evalId === evalCase.evalId)) {
        throw new EvalExistsError({ kind: 'evalCase', id: evalCase.evalId });
      }
      set.evalCases.push(evalCase);
    });
  }

  async getEvalCase(
    appName: string,
    evalSetId: string,
    evalId: string,
  ): Promise<EvalCase | undefined> {
    return (await this.getEvalSet(appName, evalSetId))?.evalCases.find((c) => c.evalId === evalId);
  }

  async updateEvalCase(appName: string, evalSetId: string, evalCase: EvalCase): Promise<void> {
    await this.#update(appName, evalSetId, (set) => {
      const index = set.evalCases.findIndex((c) => c.evalId === evalCase.evalId);
      if (index < 0)
        throw new EvalNotFoundError({
          kind: 'evalCase',
          id: evalCase.evalId,
          where: `eval set ${evalSetId}`,
        });
      set.evalCases[index] = evalCase;
    });
  }

  async deleteEvalCase(appName: string, evalSetId: string, evalId: string): Promise<void> {
    await this.#update(appName, evalSetId, (set) => {
      const index = set.evalCases.findIndex((c) => c.evalId === evalId);
      if (index < 0)
        throw new EvalNotFoundError({
          kind: 'evalCase',
          id: evalId,
          where: `eval set ${evalSetId}`,
        });
      set.evalCases.splice(index, 1);
    });
  }
}
