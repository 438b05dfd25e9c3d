import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

import packageJson from '../../package.json' with { type: 'json' };
import { UsageError } from '../errors';
import { localPackageFields, readLocalPackages } from './local-packages';
import { PROJECT_ADK_PACKAGES } from './project-manifest';
import { projectFiles } from './templates';

/** Options of {@link createProject}. */
export interface CreateProjectOptions {
  /** Project and agent name: letters, digits, `_` and `-`, starting with a letter. */
  name: string;
  /** Parent folder (default the current one); the project goes to `<dir>/<name>`. */
  dir?: string;
  /** Default model of the agent (default `gemini-2.5-flash`). */
  model?: string;
  /**
   * A folder of ADK package tarballs (`pnpm pack:all` in a clone of the repository): the project
   * then installs them through `file:` ranges instead of from a registry.
   */
  packages?: string;
}

/**
 * Scaffold an agent project: `package.json`, `agent.ts` (a tool-using agent exporting
 * `rootAgent`), `agent.test.ts` (a FakeModel test), an eval set in `evals/`, `.env.example`,
 * `tsconfig.json` (strict, NodeNext), `.gitignore` and a README. Refuses a name that is not a
 * valid app name, a non-empty target folder and a `packages` folder without the tarballs the
 * project needs. Returns the project folder and the files written.
 *
 * @example
 * ```ts
 * const { dir } = createProject({ name: 'my_agent', dir: '/tmp' });
 * // then, in dir: npm install && npm test
 * ```
 */
export function createProject(options: CreateProjectOptions): { dir: string; files: string[] } {
  const { name } = options;
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(name)) {
    throw new UsageError(
      `Invalid project name "${name}": use letters, digits, "_" and "-", starting with a letter.`,
    );
  }
  const local =
    options.packages === undefined
      ? undefined
      : localPackageFields(readLocalPackages(options.packages), PROJECT_ADK_PACKAGES);
  const dir = resolve(options.dir ?? '.', name);
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new UsageError(`${dir} exists and is not empty: choose another name or folder.`);
  }
  const files = projectFiles({
    name: name.replace(/-/g, '_'),
    model: options.model ?? 'gemini-2.5-flash',
    adkVersion: packageJson.version,
    ...(local ? { local } : {}),
  });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return { dir, files: Object.keys(files) };
}
