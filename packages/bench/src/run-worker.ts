import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import type { FrameworkId } from './frameworks/framework';
import type { WorkerResult } from './worker';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

/**
 * Run one worker process for `framework` and resolve with its metrics. The worker inherits this
 * process's Node flags (`--expose-gc`, `--conditions=source`, `--import tsx`).
 */
export function runWorker(framework: FrameworkId, flags: readonly string[]): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, [framework, ...flags], {
      execArgv: process.execArgv,
      stdio: 'inherit',
    });
    let result: WorkerResult | undefined;
    child.on('message', (message) => {
      result = message as WorkerResult;
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (result !== undefined && code === 0) resolve(result);
      else
        reject(
          new Error(
            `${framework} worker failed (exit code ${code ?? 'none'}, signal ${signal ?? 'none'})`,
          ),
        );
    });
  });
}
