import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';

/**
 * Read `<dir>/.env` into `env` when the file exists, as Python ADK does for an agent's folder.
 * Variables already set win over the file. Returns the names it set.
 */
export function loadDotEnv(dir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const file = join(dir, '.env');
  if (!existsSync(file)) return [];
  const set: string[] = [];
  for (const [key, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (env[key] === undefined && value !== undefined) {
      env[key] = value;
      set.push(key);
    }
  }
  return set;
}
