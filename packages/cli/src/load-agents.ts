import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { isApp, type App, type BaseAgent } from '@adk/core';

import { AgentLoadError } from './errors';
import { registerInstalledProviders } from './register-installed-providers';

const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];
const ENTRY_NAMES = ['agent', 'index'];
/** Python ADK's agent config file: an app folder holding it is served like one with `agent.ts`. */
const CONFIG_ENTRY = 'root_agent.yaml';

/** True for an ADK agent object (from any copy of `@adk/core`). */
export function isAgent(value: unknown): value is BaseAgent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as BaseAgent).name === 'string' &&
    Array.isArray((value as BaseAgent).subAgents) &&
    typeof (value as BaseAgent).run === 'function'
  );
}

let tsxRegistered: Promise<void> | undefined;

/** Let `import()` load TypeScript files when the CLI runs from its build (no-op under tsx). */
function ensureTypeScript(): Promise<void> {
  tsxRegistered ??= (async () => {
    if (process.execArgv.some((arg) => arg.includes('tsx'))) return;
    const { register } = await import('tsx/esm/api');
    register();
  })();
  return tsxRegistered;
}

/** What an agent file exports: its root agent, and the `App` when it exports one. */
export interface LoadedAgentModule {
  agent: BaseAgent;
  /** The file's `app` export (an `App` of `@adk/core`: its plugins apply to every run). */
  app: App | undefined;
}

/**
 * Load what an agent file exports: an `app` (an `App` of `@adk/core`, whose plugins then apply to
 * every run), else `rootAgent`, else the default export (an agent, or a function returning one).
 * The provider packages installed next to the file are registered first (see
 * `registerInstalledProviders`), so `model: 'gemini-2.5-flash'` works as written.
 */
export async function loadAgentModule(file: string): Promise<LoadedAgentModule> {
  let path = resolve(file);
  if (existsSync(path) && statSync(path).isDirectory()) path = folderEntry(path) ?? path;
  if (!existsSync(path))
    throw new AgentLoadError({
      path,
      reason: 'not-found',
      message: `Agent file not found: ${path}`,
    });
  if (['.yaml', '.yml'].includes(extname(path)))
    return { agent: await loadConfigFile(path), app: undefined };
  if (['.ts', '.mts', '.cts'].includes(extname(path))) await ensureTypeScript();
  await registerInstalledProviders(dirname(path));
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new AgentLoadError({
      path,
      message: `Could not load ${path}: ${(error as Error).message}`,
      cause: error,
    });
  }
  if (isApp(module.app) && isAgent(module.app.agent)) {
    return { agent: module.app.agent, app: module.app };
  }
  for (const candidate of [module.rootAgent, module.default]) {
    const value =
      typeof candidate === 'function' && !isAgent(candidate)
        ? await (candidate as () => unknown)()
        : candidate;
    if (isAgent(value)) return { agent: value, app: undefined };
  }
  throw new AgentLoadError({
    path,
    reason: 'no-agent',
    message: `${path} exports no agent: export \`rootAgent\` (or a default export) holding an LlmAgent or another agent, or an \`app\`.`,
  });
}

/**
 * An agent tree from a YAML agent config (Python ADK's `root_agent.yaml`, read by
 * `@adk/agent-config`); the code it references may be TypeScript.
 */
async function loadConfigFile(path: string): Promise<BaseAgent> {
  await ensureTypeScript();
  await registerInstalledProviders(dirname(path));
  const { loadAgentConfig } = await import('@adk/agent-config');
  try {
    return await loadAgentConfig(path);
  } catch (error) {
    throw new AgentLoadError({ path, message: (error as Error).message, cause: error });
  }
}

/** Load the root agent of an agent file (see {@link loadAgentModule}). */
export async function loadAgentFile(file: string): Promise<BaseAgent> {
  return (await loadAgentModule(file)).agent;
}

/** The entry file of an app folder (`agent.ts`, `index.ts`, or their .js forms), if any. */
function folderEntry(dir: string): string | undefined {
  for (const name of ENTRY_NAMES) {
    for (const extension of EXTENSIONS) {
      const file = join(dir, `${name}${extension}`);
      if (existsSync(file)) return file;
    }
  }
  const config = join(dir, CONFIG_ENTRY);
  return existsSync(config) ? config : undefined;
}

/** A file of the agents folder that was skipped, and why. */
export interface SkippedApp {
  name: string;
  path: string;
  reason: string;
}

/**
 * Load every app of an agents folder (see {@link findApps}). A file or folder that exports no
 * agent (a helper module, say), or that fails to import, is skipped and reported through `warn`
 * with the file's path and the reason: the other apps are still served, as Python ADK's server does.
 */
export async function loadApps(
  agentsDir: string,
  warn: (message: string) => void = (message) => process.stderr.write(`${message}\n`),
): Promise<{
  apps: Map<string, BaseAgent>;
  /** The apps whose file exports an `App` (its plugins apply to every run), by name. */
  applications: Map<string, App>;
  skipped: SkippedApp[];
}> {
  const apps = new Map<string, BaseAgent>();
  const applications = new Map<string, App>();
  const skipped: SkippedApp[] = [];
  for (const [name, file] of findApps(agentsDir)) {
    try {
      const loaded = await loadAgentModule(file);
      apps.set(name, loaded.agent);
      if (loaded.app) applications.set(name, loaded.app);
    } catch (error) {
      if (!AgentLoadError.isInstance(error) || error.reason === 'not-found') throw error;
      skipped.push({ name, path: file, reason: error.message });
      warn(
        error.reason === 'no-agent'
          ? `warning: skipped ${file}: it exports no agent (export \`rootAgent\` or a default agent to serve it as an app).`
          : `warning: skipped ${file}: ${error.message}`,
      );
    }
  }
  return { apps, applications, skipped };
}

/** An app name from a file or folder name: letters, digits and `_` (as the official server wants). */
export function appNameOf(path: string): string {
  return basename(path, extname(path)).replace(/[^A-Za-z0-9_]/g, '_');
}

/** One app given on the command line: its entry file, its name, and the agents folder it is in. */
export interface AgentApp {
  file: string;
  /** The name `adk web` gives it when serving its agents folder. */
  appName: string;
  /** The folder holding the app (where `<app>/.adk/eval_history/` goes). */
  agentsDir: string;
}

/**
 * The app of a path given to a command (`adk eval`, `adk mcp`), named as `adk web` names it in its
 * agents folder: an app folder (or its `agent`/`index` entry file) by the folder's name, a single
 * agent file by the file's name.
 *
 * @throws AgentLoadError (`not-found`) when the path does not exist or a folder has no entry file.
 */
export function agentAppOf(path: string): AgentApp {
  const full = resolve(path);
  if (!existsSync(full)) {
    throw new AgentLoadError({
      path: full,
      reason: 'not-found',
      message: `Agent not found: ${full}`,
    });
  }
  if (statSync(full).isDirectory()) {
    const file = folderEntry(full);
    if (!file) {
      throw new AgentLoadError({
        path: full,
        reason: 'not-found',
        message: `${full} has no agent.ts or index.ts (or .js).`,
      });
    }
    return { file, appName: appNameOf(full), agentsDir: dirname(full) };
  }
  const entry = (ENTRY_NAMES as readonly string[]).includes(basename(full, extname(full)));
  const dir = dirname(full);
  return entry
    ? { file: full, appName: appNameOf(dir), agentsDir: dirname(dir) }
    : { file: full, appName: appNameOf(full), agentsDir: dir };
}

/**
 * Find the apps of an agents folder: each sub-folder with an `agent` or `index` file, and each
 * agent file directly inside. Returns app name → entry file, sorted by name.
 */
export function findApps(agentsDir: string): Map<string, string> {
  const root = resolve(agentsDir);
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new AgentLoadError({
      path: root,
      reason: 'not-found',
      message: `Agents folder not found: ${root}`,
    });
  }
  const apps = new Map<string, string>();
  for (const entry of readdirSync(root, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(root, entry.name);
    if (entry.isDirectory()) {
      const file = folderEntry(path);
      if (file) apps.set(appNameOf(path), file);
    } else if (
      EXTENSIONS.includes(extname(entry.name)) &&
      !/\.(test|spec|d)\.[mc]?[jt]s$/.test(entry.name)
    ) {
      apps.set(appNameOf(path), path);
    }
  }
  return apps;
}
