import { existsSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];
const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Where a reference is resolved from, and how to report a failure. */
export interface RefContext {
  /** The folder of the config file that holds the reference. */
  dir: string;
  /** The agents folder (the parent of the agent's folder): Python's import root. */
  root: string;
  fail(problem: string, cause?: unknown): never;
}

/**
 * The value a code reference names. Two spellings:
 * - `module#export`: a module path relative to the config file (`./tools.ts#getWeather`) or a
 *   package name (`@acme/tools#search`);
 * - Python's dotted name: `tools.get_weather` is the export `get_weather` of `tools.ts` (or
 *   `.mts`, `.js`, `.mjs`) beside the config file; `my_agent.tools.get_weather` the one of
 *   `my_agent/tools.ts` in the agents folder.
 * Node's built-in modules are refused, as Python's loader refuses its standard library.
 */
export async function resolveCodeRef(name: string, context: RefContext): Promise<unknown> {
  const [specifier, exportName] = name.includes('#')
    ? (name.split('#', 2) as [string, string])
    : dotted(name, context);
  if (BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0]!)) {
    context.fail(
      `"${name}" refers to Node's built-in module "${specifier}", which agent configs may not use.`,
    );
  }
  let url: string;
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    url = pathToFileURL(resolve(context.dir, specifier)).href;
  } else {
    try {
      url = pathToFileURL(
        createRequire(join(context.dir, 'agent-config.js')).resolve(specifier),
      ).href;
    } catch (cause) {
      context.fail(`cannot find the module "${specifier}" of "${name}".`, cause);
    }
  }
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (cause) {
    context.fail(
      `cannot load "${specifier}" for "${name}": ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    );
  }
  if (!(exportName in module)) {
    const names = Object.keys(module).filter((key) => key !== 'default');
    context.fail(
      `"${specifier}" has no export "${exportName}" (it exports: ${names.join(', ') || 'nothing'}).`,
    );
  }
  return module[exportName];
}

function dotted(name: string, context: RefContext): [string, string] {
  const segments = name.split('.');
  if (segments.length < 2 || !segments.every((segment) => /^[A-Za-z_$][\w$-]*$/.test(segment))) {
    context.fail(`"${name}" is not a code reference: use "module.export" or "./module.ts#export".`);
  }
  const exportName = segments.at(-1)!;
  const modulePath = segments.slice(0, -1);
  for (const base of [context.dir, context.root]) {
    const file = findModule(join(base, ...modulePath));
    if (file) return [file, exportName];
  }
  // Not a file of the project: a package (`some_package.tool`).
  return [modulePath.join('/'), exportName];
}

function findModule(stem: string): string | undefined {
  for (const candidate of [
    ...EXTENSIONS.map((ext) => stem + ext),
    ...EXTENSIONS.map((ext) => join(stem, `index${ext}`)),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Call a factory with a CodeConfig's `args`: named args as one object, unnamed ones in order. */
export function applyArgs(
  value: unknown,
  args: ReadonlyArray<{ name?: string | undefined; value: unknown }> | undefined,
  fail: (problem: string) => never,
): unknown {
  if (args === undefined) return value;
  if (typeof value !== 'function') fail('has "args" but is not a function to call with them.');
  const named = args.every((arg) => arg.name !== undefined);
  const fn = value as (...params: unknown[]) => unknown;
  if (named) return fn(Object.fromEntries(args.map((arg) => [arg.name!, arg.value])));
  return fn(...args.map((arg) => arg.value));
}
