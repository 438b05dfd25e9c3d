import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { CheckFailure, runCommand } from './run-command';
import type { PublishedPackage } from './workspace';

/** A packed package: its tarball and what the tarball holds. */
export interface Tarball {
  pkg: PublishedPackage;
  /** Absolute path of the `.tgz`. */
  path: string;
}

/** Files every tarball must hold (npm adds LICENSE and README whatever `files` says). */
const REQUIRED = ['package/package.json', 'package/README.md', 'package/LICENSE'];

/** The `exports` of a manifest as published: the monorepo-only `source` condition removed. */
export function publishedExports(exports: unknown): unknown {
  if (typeof exports !== 'object' || exports === null) return exports;
  return Object.fromEntries(
    Object.entries(exports)
      .filter(([condition]) => condition !== 'source')
      .map(([key, value]) => [key, publishedExports(value)]),
  );
}

/**
 * `pnpm pack` each package into `destination`, one folder holding every `.tgz` (pnpm replaces
 * `workspace:` ranges by the versions and applies `publishConfig`, as `pnpm publish` does), then
 * checks each tarball: LICENSE, README and package.json present, no `workspace:` range left, its
 * `exports` those of the repository without the `source` condition (whose `src/` files do not
 * ship), and every file they name present. The folder is emptied first.
 */
export async function packAll(
  packages: readonly PublishedPackage[],
  destination: string,
): Promise<Tarball[]> {
  rmSync(destination, { recursive: true, force: true });
  mkdirSync(destination, { recursive: true });
  // pnpm pack is mostly start-up time: pack a few at a time, each into its own folder
  await Promise.all(
    [0, 1, 2, 3].map(async (lane) => {
      for (let index = lane; index < packages.length; index += 4) {
        const pkg = packages[index]!;
        const dir = join(destination, `.${pkg.slug}`);
        mkdirSync(dir, { recursive: true });
        await runCommand('pnpm', ['pack', '--pack-destination', dir], { cwd: pkg.dir });
      }
    }),
  );
  const tarballs: Tarball[] = [];
  for (const pkg of packages) {
    const packed = join(destination, `.${pkg.slug}`);
    const created = readdirSync(packed).find((name) => name.endsWith('.tgz'));
    if (!created) throw new CheckFailure(`pnpm pack of ${pkg.name} wrote no tarball`);
    const path = join(destination, created);
    renameSync(join(packed, created), path);
    rmSync(packed, { recursive: true, force: true });
    const listing = (await runCommand('tar', ['-tzf', path], { cwd: destination })).stdout
      .split('\n')
      .filter(Boolean);
    const missing = REQUIRED.filter((file) => !listing.includes(file));
    if (missing.length > 0) {
      throw new CheckFailure(
        `${pkg.name}'s tarball lacks ${missing.join(', ')}: copy the root LICENSE into ${pkg.dir} and list it in "files"`,
      );
    }
    const manifest = JSON.parse(
      (await runCommand('tar', ['-xzOf', path, 'package/package.json'], { cwd: destination }))
        .stdout,
    ) as { exports?: Record<string, Record<string, string> | string> };
    if (JSON.stringify(manifest).includes('workspace:')) {
      throw new CheckFailure(`${pkg.name}'s packed package.json still has a workspace: range`);
    }
    const repository = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) as {
      exports?: unknown;
    };
    if (JSON.stringify(manifest.exports) !== JSON.stringify(publishedExports(repository.exports))) {
      throw new CheckFailure(
        `${pkg.name}: the packed "exports" are not the repository's without "source": run pnpm --filter @adk/consumer-check publish-exports`,
      );
    }
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const files = typeof target === 'string' ? [target] : Object.values(target);
      for (const file of files) {
        if (!listing.includes(`package/${file.replace(/^\.\//, '')}`)) {
          throw new CheckFailure(
            `${pkg.name}: export "${subpath}" names ${file}, not in the tarball`,
          );
        }
      }
    }
    tarballs.push({ pkg, path });
  }
  return tarballs;
}
