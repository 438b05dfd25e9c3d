import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import packageJson from '../../package.json' with { type: 'json' };
import { UsageError } from '../errors';
import { projectFiles } from './templates';

/** Options of {@link createProject}. */
export interface CreateProjectOptions {
  /** Project and agent name: letters, digits, `_` and `-`, starting with a letter. */
  name: string;
  /** Parent folder (default the current one); the project goes to `<dir>/<name>`. */
  dir?: string;
  /** Default model of the agent (default `gemini-2.5-flash`). */
  model?: string;
}

/**
 * Scaffold an agent project: `package.json`, `agent.ts` (a tool-using agent exporting
 * `rootAgent`), `agent.test.ts` (a FakeModel test), `.env.example`, `tsconfig.json`, `.gitignore`
 * and a README. Refuses a name that is not a valid app name and a non-empty target folder.
 * Returns the project folder and the files written.
 */
export function createProject(options: CreateProjectOptions): { dir: string; files: string[] } {
  const { name } = options;
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(name)) {
    throw new UsageError(
      `Invalid project name "${name}": use letters, digits, "_" and "-", starting with a letter.`,
    );
  }
  const dir = resolve(options.dir ?? '.', name);
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new UsageError(`${dir} exists and is not empty: choose another name or folder.`);
  }
  mkdirSync(dir, { recursive: true });
  const files = projectFiles({
    name: name.replace(/-/g, '_'),
    model: options.model ?? 'gemini-2.5-flash',
    adkVersion: packageJson.version,
  });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return { dir, files: Object.keys(files) };
}
