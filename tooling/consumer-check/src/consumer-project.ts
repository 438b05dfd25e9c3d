import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { envFor, type NodeRuntime } from './node-runtime';
import { runCommand } from './run-command';
import type { Tarball } from './pack';

/** The package managers a consumer project is installed with. */
export type PackageManager = 'npm' | 'pnpm';

/** A fresh project outside the monorepo, with the packed tarballs installed. */
export interface ConsumerProject {
  dir: string;
  manager: PackageManager;
  runtime: NodeRuntime;
  /** Milliseconds the install took. */
  installMs: number;
}

/** Options of {@link createConsumerProject}. */
export interface ConsumerProjectOptions {
  dir: string;
  manager: PackageManager;
  runtime: NodeRuntime;
  /** The ADK tarballs to install (as `file:` dependencies). */
  tarballs: readonly Tarball[];
  /** Registry packages to install beside them (`{ kysely: '^0.29.0' }`). */
  registry: Record<string, string>;
}

/**
 * Writes a `package.json` (ESM, as the packages are) and installs it with npm or pnpm, running on
 * the lane's Node.js. The ADK packages come from the tarballs, forced for transitive uses too (an
 * `@adk/*` dependency never reaches the registry); dependency install scripts are skipped, as npm
 * 11 and pnpm 10 skip them by default: `provideBetterSqlite3` supplies the native addon after.
 */
export async function createConsumerProject(
  options: ConsumerProjectOptions,
): Promise<ConsumerProject> {
  const { dir, manager, runtime } = options;
  mkdirSync(dir, { recursive: true });
  const adk = Object.fromEntries(
    options.tarballs.map((tarball) => [tarball.pkg.name, `file:${tarball.path}`]),
  );
  const manifest: Record<string, unknown> = {
    name: `adk-consumer-${manager}`,
    version: '1.0.0',
    private: true,
    type: 'module',
    dependencies: { ...adk, ...options.registry },
  };
  if (manager === 'npm') {
    manifest.overrides = Object.fromEntries(Object.keys(adk).map((name) => [name, `$${name}`]));
  } else {
    manifest.pnpm = { overrides: adk };
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const args =
    manager === 'npm'
      ? ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error']
      : [
          'install',
          '--ignore-scripts',
          '--reporter=append-only',
          '--config.confirmModulesPurge=false',
        ];
  const { ms } = await runCommand(manager, args, {
    cwd: dir,
    env: envFor(runtime),
    timeoutMs: 900_000,
  });
  return { dir, manager, runtime, installMs: ms };
}
