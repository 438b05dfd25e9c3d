import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
} from 'node:fs';
import { join } from 'node:path';

import type { NodeRuntime } from './node-runtime';
import { envFor } from './node-runtime';
import { runCommand } from './run-command';

function isPackage(dir: string, packageName: string): boolean {
  const manifest = join(dir, 'package.json');
  return (
    existsSync(manifest) &&
    (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === packageName
  );
}

/** Every installed copy of `packageName` under `nodeModules` (pnpm's `.pnpm` store included). */
export function installedCopies(nodeModules: string, packageName: string): string[] {
  const found = new Set<string>();
  const visit = (dir: string, depth: number): void => {
    if (depth > 6 || !existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
      const path = join(dir, entry.name);
      if (entry.name === packageName && isPackage(path, packageName)) {
        found.add(realpathSync(path));
      } else if (entry.name.startsWith('@') || entry.name === '.pnpm') {
        visit(path, depth + 1);
      } else if (entry.isDirectory()) {
        visit(join(path, 'node_modules'), depth + 1);
      }
    }
  };
  visit(nodeModules, 0);
  return [...found].sort();
}

/**
 * Whether the better-sqlite3 in `dir` needs its addon built: 12 builds it at install time (or
 * downloads one); 13 ships N-API binaries for the common platforms in its package (`prebuilds/`).
 */
export function needsBuild(dir: string): boolean {
  return !existsSync(join(dir, 'prebuilds', `${process.platform}-${process.arch}.node`));
}

/** Where npm keeps node-gyp (npm runs it for packages with a `binding.gyp`). */
async function nodeGypScript(): Promise<string> {
  const root = (await runCommand('npm', ['root', '-g'], { cwd: '/' })).stdout.trim();
  return join(root, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
}

/**
 * Gives every installed better-sqlite3 its native addon. Installs run with dependency scripts
 * skipped (what npm 11 and pnpm 10 do by default), so the addon is missing; it is copied from
 * `cacheDir` when a build of the same version for the same Node ABI is there, else built with
 * node-gyp (about 100 s on 2 cores) and cached. Returns what it did, per copy.
 */
export async function provideBetterSqlite3(
  nodeModules: string,
  runtime: NodeRuntime,
  cacheDir: string,
): Promise<string[]> {
  mkdirSync(cacheDir, { recursive: true });
  const done: string[] = [];
  for (const dir of installedCopies(nodeModules, 'better-sqlite3')) {
    const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      version: string;
    };
    if (!needsBuild(dir)) {
      done.push(`better-sqlite3 ${version}: prebuilt binary in the package`);
      continue;
    }
    const addon = join(dir, 'build', 'Release', 'better_sqlite3.node');
    const cached = join(
      cacheDir,
      `better-sqlite3-${version}-abi${runtime.abi}-${process.platform}-${process.arch}.node`,
    );
    if (existsSync(cached)) {
      mkdirSync(join(dir, 'build', 'Release'), { recursive: true });
      copyFileSync(cached, addon);
      done.push(`better-sqlite3 ${version}: cached build`);
      continue;
    }
    const started = performance.now();
    await runCommand(
      join(runtime.binDir, 'node'),
      [await nodeGypScript(), 'rebuild', '--release', `--nodedir=${runtime.headersDir}`],
      { cwd: dir, env: envFor(runtime), timeoutMs: 900_000 },
    );
    copyFileSync(addon, cached);
    done.push(
      `better-sqlite3 ${version}: built in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  }
  return done;
}
