import { mkdirSync, readdirSync } from 'node:fs';
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

/**
 * `pnpm pack` each package into `destination` (pnpm replaces `workspace:` ranges by the versions,
 * as `pnpm publish` does), then checks each tarball: LICENSE, README and package.json present, no
 * `workspace:` range left, every file its `exports` names present.
 */
export async function packAll(
  packages: readonly PublishedPackage[],
  destination: string,
): Promise<Tarball[]> {
  mkdirSync(destination, { recursive: true });
  // pnpm pack is mostly start-up time: pack a few at a time, each into its own folder
  await Promise.all(
    [0, 1, 2, 3].map(async (lane) => {
      for (let index = lane; index < packages.length; index += 4) {
        const pkg = packages[index]!;
        const dir = join(destination, pkg.slug);
        mkdirSync(dir, { recursive: true });
        await runCommand('pnpm', ['pack', '--pack-destination', dir], { cwd: pkg.dir });
      }
    }),
  );
  const tarballs: Tarball[] = [];
  for (const pkg of packages) {
    const created = readdirSync(join(destination, pkg.slug)).find((name) => name.endsWith('.tgz'));
    if (!created) throw new CheckFailure(`pnpm pack of ${pkg.name} wrote no tarball`);
    const path = join(destination, pkg.slug, created);
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
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const files = typeof target === 'string' ? [target] : Object.values(target);
      for (const file of files) {
        if (file.startsWith('./src/')) continue; // the `source` condition, for the monorepo only
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
