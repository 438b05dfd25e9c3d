import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { satisfiesNodeRange } from './node-range';
import { SqlDriverMissingError } from './sql-driver-missing-error';

/** The installed package's manifest, found above the file `require.resolve` gives for it. */
function installedManifest(
  packageName: string,
  resolveFrom: string,
): { version?: string; engines?: { node?: string } } | undefined {
  let dir: string;
  try {
    dir = dirname(createRequire(resolveFrom).resolve(packageName));
  } catch {
    return undefined; // not installed: the import reports it
  }
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as {
        name?: string;
        version?: string;
        engines?: { node?: string };
      };
      if (manifest.name === packageName) return manifest;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Refuses a native driver whose `engines.node` excludes the running Node.js, before its addon is
 * loaded: better-sqlite3 13 installs on Node 20 without a word (npm and pnpm only check engines
 * with `engine-strict`) and its addon crashes the process with a segmentation fault on load, with
 * no message. Throws {@link SqlDriverMissingError} (`reason: 'unsupported-node'`) naming the
 * version that works; does nothing when the package is missing or its range unreadable.
 *
 * @param resolveFrom - where the driver is resolved from (default: this package, as `import` does)
 * @param nodeVersion - the running Node.js (default `process.versions.node`)
 */
export function assertDriverSupportsNode(
  packageName: string,
  resolveFrom: string = import.meta.url,
  nodeVersion: string = process.versions.node,
): void {
  const manifest = installedManifest(packageName, resolveFrom);
  const range = manifest?.engines?.node;
  if (!range || satisfiesNodeRange(range, nodeVersion) !== false) return;
  throw new SqlDriverMissingError({
    packageName,
    reason: 'unsupported-node',
    installed: { version: manifest.version ?? 'unknown', engines: range },
    nodeVersion,
  });
}
