import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The provider packages the CLI looks for, and the function each exports to register itself. */
export const PROVIDER_PACKAGES: readonly { packageName: string; register: string }[] = [
  { packageName: '@adk/models-gemini', register: 'registerGemini' },
  { packageName: '@adk/models-anthropic', register: 'registerAnthropic' },
  { packageName: '@adk/models-openai', register: 'registerOpenAI' },
];

/** Module files already registered: each provider module registers once per process. */
const registered = new Set<string>();

/**
 * Registers every ADK provider package installed where an agent file lives, with its default
 * settings (keys read from the environment at call time), so an agent naming its model with a
 * string (`model: 'gemini-2.5-flash'`) runs under `adk run` as written.
 *
 * Packages are resolved from `fromDir` (the agent file's folder), as the agent's own imports are,
 * so the provider registers with the `@adk/core` the agent uses. Each resolved module registers
 * once per process and before the agent file is imported: an agent file that calls
 * `registerGemini({ ... })` itself replaces the default registration (a provider with the same id
 * replaces the earlier one). A package that is not installed is skipped.
 *
 * @returns the packages registered by this call.
 */
export async function registerInstalledProviders(fromDir: string): Promise<string[]> {
  const done: string[] = [];
  for (const { packageName, register } of PROVIDER_PACKAGES) {
    const file = resolveInstalled(packageName, fromDir);
    if (file === undefined) continue; // not installed next to the agent
    if (registered.has(file)) continue;
    registered.add(file);
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const registerProvider = module[register];
    if (typeof registerProvider === 'function') {
      (registerProvider as () => unknown)();
      done.push(packageName);
    }
  }
  return done;
}

/**
 * The entry file of `packageName` in the nearest `node_modules` above `fromDir`, or `undefined`.
 * Only `node_modules` folders count: Node's global folders and `NODE_PATH` (which pnpm sets for
 * its scripts) could otherwise hand back a package the agent's project does not have.
 */
export function resolveInstalled(packageName: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const modules = join(dir, 'node_modules');
    if (existsSync(join(modules, packageName, 'package.json'))) {
      try {
        return createRequire(join(modules, 'noop.js')).resolve(packageName);
      } catch {
        return undefined; // installed but unusable from here: let the agent's own import report it
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}
