import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** `bench-results/` at the repository root (git-ignored). */
const RESULTS_DIR = new URL('../../../../bench-results/', import.meta.url);

/** Write `results` to `bench-results/latest.json` and a timestamped copy; returns the latest path. */
export async function writeResults(
  results: { startedAt: string } & Record<string, unknown>,
): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const latest = new URL('latest.json', RESULTS_DIR);
  await writeFile(latest, json);
  await writeFile(new URL(`${results.startedAt.replace(/[:.]/g, '-')}.json`, RESULTS_DIR), json);
  return fileURLToPath(latest);
}
