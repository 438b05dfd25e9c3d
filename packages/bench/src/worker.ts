/**
 * One benchmark worker: a fresh Node process that loads ONE framework, warms it up and runs the
 * in-memory scenarios in order, then reports its metrics to the parent over IPC (or prints them as
 * JSON when started by hand, which is how to profile a single framework:
 * `node --expose-gc --cpu-prof --conditions=source --import tsx src/worker.ts adk-ts --only=longSession`).
 */
import type { FrameworkId } from './frameworks/framework';
import { FRAMEWORKS, loadHarnessFactory } from './frameworks/load';
import { FULL_SIZES, QUICK_SIZES, SCENARIOS, warmUp } from './scenarios';
import type { Metrics, ScenarioName } from './scenarios';

/** What a worker sends back. */
export interface WorkerResult {
  framework: FrameworkId;
  metrics: Partial<Record<ScenarioName, Metrics>>;
}

async function main(): Promise<void> {
  const [frameworkArg, ...flags] = process.argv.slice(2);
  if (frameworkArg === undefined || !(FRAMEWORKS as readonly string[]).includes(frameworkArg)) {
    throw new Error(
      `usage: worker.ts <${FRAMEWORKS.join('|')}> [--quick] [--only=<scenario>,...] [--repeat=N]`,
    );
  }
  const quick = flags.includes('--quick');
  const only = flags
    .find((flag) => flag.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const repeat = Number(
    flags.find((flag) => flag.startsWith('--repeat='))?.slice('--repeat='.length) ?? 1,
  );
  const sizes = quick ? QUICK_SIZES : FULL_SIZES;
  const framework = frameworkArg as FrameworkId;
  const factory = await loadHarnessFactory(framework);
  await warmUp(factory, sizes.warmupTurns);
  const metrics: WorkerResult['metrics'] = {};
  for (const [name, scenario] of Object.entries(SCENARIOS) as [
    ScenarioName,
    (typeof SCENARIOS)[ScenarioName],
  ][]) {
    if (only !== undefined && !only.includes(name)) continue;
    // `--repeat=N` (for profiling) runs a scenario N times and keeps the last figures.
    for (let i = 0; i < repeat; i++) {
      metrics[name] = await scenario(factory, sizes);
      globalThis.gc?.();
    }
  }
  const result: WorkerResult = { framework, metrics };
  if (process.send) process.send(result, () => process.disconnect());
  else console.log(JSON.stringify(result, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
