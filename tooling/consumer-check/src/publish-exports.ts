/**
 * `pnpm --filter @adk/consumer-check publish-exports`: writes each publishable package's
 * `publishConfig.exports`, its `exports` without the monorepo-only `source` condition (what pnpm
 * puts in the packed manifest). Run it after adding a package or an entry point; the consumer
 * check fails when the two disagree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { publishedExports } from './pack';
import { publishedPackages } from './workspace';

const root = resolve(import.meta.dirname, '../../..');
for (const pkg of publishedPackages(root)) {
  const file = join(pkg.dir, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  if (manifest.exports === undefined) continue;
  const wanted = publishedExports(manifest.exports);
  const current = (manifest.publishConfig as { exports?: unknown } | undefined)?.exports;
  if (JSON.stringify(current) === JSON.stringify(wanted)) continue;
  const updated: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(manifest)) {
    if (key === 'publishConfig') continue;
    updated[key] = value;
    if (key === 'exports') {
      updated.publishConfig = { ...(manifest.publishConfig as object), exports: wanted };
    }
  }
  writeFileSync(file, `${JSON.stringify(updated, null, 2)}\n`);
  console.log(`${pkg.name}: publishConfig.exports written`);
}
