import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { UsageError } from '../errors';

/** `adk-models-gemini-0.1.0.tgz` → `models-gemini` and `0.1.0` (what `pnpm pack` names them). */
const TARBALL = /^adk-(.+)-(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?)\.tgz$/;

/**
 * The ADK package tarballs of a folder written by `pnpm pack:all` in a clone of the repository:
 * package name (`@adk/core`) → absolute path of its `.tgz`. Refuses a missing or empty folder and
 * a folder holding two versions of one package, saying how to make a good one.
 */
export function readLocalPackages(folder: string): Map<string, string> {
  const dir = resolve(folder);
  const remedy = 'run "pnpm pack:all" in your clone of ADK for TypeScript, then pass its folder';
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new UsageError(`--packages ${dir}: no such folder (${remedy}).`);
  }
  const found = new Map<string, string>();
  for (const file of readdirSync(dir).sort()) {
    const match = TARBALL.exec(file);
    if (!match) continue;
    const name = `@adk/${match[1]!}`;
    if (found.has(name)) {
      throw new UsageError(
        `--packages ${dir} holds two tarballs of ${name}: ${file} and ${found.get(name)!.split('/').at(-1)!} (${remedy}; it empties the folder first).`,
      );
    }
    found.set(name, join(dir, file));
  }
  if (found.size === 0) {
    throw new UsageError(`--packages ${dir} holds no ADK package tarball (${remedy}).`);
  }
  return found;
}

/**
 * The `package.json` fields that install ADK packages from local tarballs: `file:` ranges for the
 * project's own ADK dependencies, and overrides (npm's `overrides`, pnpm's `pnpm.overrides`) so
 * that the ADK packages they depend on come from the tarballs too, never from a registry.
 */
export function localPackageFields(
  tarballs: ReadonlyMap<string, string>,
  needed: readonly string[],
): { ranges: Record<string, string>; overrides: Record<string, string> } {
  const missing = needed.filter((name) => !tarballs.has(name));
  if (missing.length > 0) {
    throw new UsageError(
      `--packages: no tarball of ${missing.join(', ')} (run "pnpm pack:all" in your clone of ADK for TypeScript again).`,
    );
  }
  const overrides = Object.fromEntries(
    [...tarballs].map(([name, path]) => [name, `file:${path}`] as const),
  );
  const ranges = Object.fromEntries(needed.map((name) => [name, overrides[name]!] as const));
  return { ranges, overrides };
}
