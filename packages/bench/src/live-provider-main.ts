/**
 * `pnpm --filter @adk/bench bench:live-provider [-- options]`: the live-path benchmark alone, as a
 * table. Options: `--quick`; `--gemini` or `--openai` (one provider API only); `--runs N`;
 * `--frames N` (measured frames per run and server); `--warmup-ms N` (the least time each run's
 * warm-up takes, 3,000 by default; 0 warms up by the frame count alone); `--sequential` (one
 * server after the other, the method before the fifth pass, instead of both at once with their
 * frames interleaved).
 */
import { runLiveProviderBench, type LiveDialect } from './live-provider-bench';
import { renderTable } from './report/table';

const args = process.argv.slice(2);
const count = (flag: string, least = 1): number | undefined => {
  const at = args.indexOf(flag);
  if (at < 0) return undefined;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value < least) {
    throw new Error(`${flag} takes an integer of at least ${least}`);
  }
  return value;
};
const dialects: LiveDialect[] | undefined = args.includes('--gemini')
  ? ['gemini']
  : args.includes('--openai')
    ? ['openai']
    : undefined;

const { rows, raw } = await runLiveProviderBench({
  quick: args.includes('--quick'),
  sequential: args.includes('--sequential'),
  ...(dialects ? { dialects } : {}),
  ...(count('--runs') !== undefined ? { runs: count('--runs') } : {}),
  ...(count('--frames') !== undefined ? { frames: count('--frames') } : {}),
  ...(count('--warmup-ms', 0) !== undefined ? { warmupMs: count('--warmup-ms', 0) } : {}),
});
// The table's second column is the bare ws relay here, not @google/adk.
console.log(renderTable(rows).replace('@google/adk 2.0.0', 'bare ws relay    '));
// ADK_BENCH_LIVE_RAW=1: every run's figures (per-run CPU ratios), as JSON on stderr.
if (process.env.ADK_BENCH_LIVE_RAW === '1') console.error(JSON.stringify(raw));
