import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, dirname, join, resolve as resolvePath } from 'node:path';

import { build, type Plugin } from 'esbuild';

/**
 * A TypeScript script bundled into one JavaScript file for the child processes a test starts, so
 * each process starts without tsx's loader: measured on a worker of `@adk/jobs`'s crash test, about
 * 2 s to ready instead of 4 s on a busy machine, and the crash tests start dozens of them.
 *
 * The workspace's own sources (`@adk/*` through their `source` export, and relative imports) are
 * bundled; every other package stays a separate import, pinned to the absolute file the importing
 * source resolves it to (as Node would from there, without the `source` condition), so the child
 * loads the same dependency versions as under tsx. Node's built-ins stay as they are. A package
 * that does not resolve (an optional peer that is not installed) is left to fail where it is
 * imported, as it would under tsx.
 *
 * One difference with tsx: `import.meta.url` in bundled code is the bundle's, which lives in the
 * nearest package's `node_modules/.cache/adk-test-bundles`; a script that locates files next to its
 * source must take their paths as arguments instead.
 *
 * Bundles are memoized per process and named by their content, so concurrent test files that
 * bundle the same script write the same file (atomically, by rename).
 *
 * @returns the bundle's absolute path: run it with `process.execPath` and no `--import tsx`.
 */
export function bundledScript(entry: string): Promise<string> {
  const absolute = resolvePath(entry);
  let bundle = bundles.get(absolute);
  if (!bundle) {
    bundle = buildBundle(absolute);
    bundles.set(absolute, bundle);
  }
  return bundle;
}

const bundles = new Map<string, Promise<string>>();

async function buildBundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    plugins: [workspaceSourcesOnly],
  });
  const code = result.outputFiles[0]!.contents;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const directory = join(packageRoot(entry), 'node_modules', '.cache', 'adk-test-bundles');
  const file = join(directory, `${basename(entry).replace(/\.[cm]?tsx?$/, '')}-${hash}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(directory, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, code);
    renameSync(temporary, file);
  }
  return file;
}

/** The folder of the nearest `package.json` above `file`. */
function packageRoot(file: string): string {
  for (let directory = dirname(file); ; directory = dirname(directory)) {
    if (existsSync(join(directory, 'package.json'))) return directory;
    if (dirname(directory) === directory) return dirname(file);
  }
}

/** Marks what the resolver runs for itself, so that its own call is not intercepted again. */
const INNER = Symbol('inner');

/**
 * `@adk/*` imports resolve to their TypeScript sources (the `source` export) and are bundled;
 * other packages resolve without that condition and stay external, by absolute path.
 */
const workspaceSourcesOnly: Plugin = {
  name: 'adk-workspace-sources-only',
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === INNER) return undefined;
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      if (args.path.startsWith('@adk/'))
        return { path: workspaceSource(args.path, args.resolveDir) };
      const resolved = await context.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: INNER,
      });
      if (resolved.errors.length > 0) return { path: args.path, external: true };
      return { path: resolved.path, external: true };
    });
  },
};

/** The TypeScript source a workspace import names, through its package's `source` export. */
function workspaceSource(specifier: string, from: string): string {
  const [scope, name, ...rest] = specifier.split('/');
  const subpath = rest.length > 0 ? `./${rest.join('/')}` : '.';
  for (let directory = from; ; directory = dirname(directory)) {
    const root = join(directory, 'node_modules', scope!, name!);
    const manifest = join(root, 'package.json');
    if (existsSync(manifest)) {
      const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
        exports?: Record<string, string | { source?: string }>;
      };
      const target = exports?.[subpath];
      const source = typeof target === 'string' ? target : target?.source;
      if (!source) throw new Error(`${specifier}: no source export in ${manifest}`);
      return join(root, source);
    }
    if (dirname(directory) === directory) throw new Error(`${specifier}: not found from ${from}`);
  }
}
