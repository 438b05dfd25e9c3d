import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { InvalidArgumentError } from '@adk/core';

import {
  EVAL_SET_RESULT_FILE_SUFFIX,
  formatEvalSetResultFile,
  parseEvalSetResult,
} from '../formats/eval-set-result-file';
import { createEvalSetResult } from '../runner/eval-set-result';
import type { EvalCaseResult, EvalSetResult } from '../schema';
import { isSafeId, type EvalSetResultsStore } from './eval-stores';

/** Folder of an app's results, relative to the app's folder (Python's). */
export const EVAL_HISTORY_DIR = join('.adk', 'eval_history');

/**
 * Eval results as files, where and how Python ADK writes them:
 * `<agentsDir>/<app>/.adk/eval_history/<evalSetResultName>.evalset_result.json`.
 */
export class LocalEvalSetResultsStore implements EvalSetResultsStore {
  readonly #agentsDir: string;

  constructor(agentsDir: string) {
    this.#agentsDir = agentsDir;
  }

  /** The folder of an app's results. */
  historyDir(appName: string): string {
    if (!isSafeId(appName))
      throw new InvalidArgumentError({
        message: `Invalid app name "${appName}".`,
        argument: 'appName',
      });
    return join(this.#agentsDir, appName, EVAL_HISTORY_DIR);
  }

  async saveEvalSetResult(
    appName: string,
    evalSetId: string,
    evalCaseResults: EvalCaseResult[],
  ): Promise<EvalSetResult> {
    const result = createEvalSetResult(appName, evalSetId, evalCaseResults);
    const dir = this.historyDir(appName);
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, `${result.evalSetResultName}${EVAL_SET_RESULT_FILE_SUFFIX}`),
      formatEvalSetResultFile(result),
    );
    return result;
  }

  async getEvalSetResult(
    appName: string,
    evalSetResultId: string,
  ): Promise<EvalSetResult | undefined> {
    if (!isSafeId(evalSetResultId)) return undefined;
    const path = join(this.historyDir(appName), `${evalSetResultId}${EVAL_SET_RESULT_FILE_SUFFIX}`);
    if (!existsSync(path)) return undefined;
    return parseEvalSetResult(await readFile(path, 'utf8'), path);
  }

  async listEvalSetResults(appName: string): Promise<string[]> {
    const dir = this.historyDir(appName);
    if (!existsSync(dir)) return [];
    return (await readdir(dir))
      .filter((file) => file.endsWith(EVAL_SET_RESULT_FILE_SUFFIX))
      .map((file) => file.slice(0, -EVAL_SET_RESULT_FILE_SUFFIX.length))
      .sort();
  }
}
