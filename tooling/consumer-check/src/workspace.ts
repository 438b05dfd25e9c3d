import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

/** A package of the monorepo that is published (not `private`). */
export interface PublishedPackage {
  name: string;
  version: string;
  /** Absolute folder. */
  dir: string;
  /** Folder name, used to name README blocks (`session-sql-1`). */
  slug: string;
  /** Its import specifiers: the name, and `name/sub` for each `./sub` of `exports`. */
  entryPoints: string[];
}

/** The folders `pnpm-workspace.yaml` lists, read without a YAML parser (`- dir/*` lines). */
function workspaceGlobs(root: string): string[] {
  const text = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const section = text.split(/^packages:\s*$/m)[1] ?? '';
  const globs: string[] = [];
  for (const line of section.split('\n')) {
    const match = /^\s+-\s+['"]?([^'"\s]+)['"]?\s*$/.exec(line);
    if (match) globs.push(match[1]!);
    else if (line.trim() !== '' && !line.startsWith(' ')) break;
  }
  return globs;
}

/**
 * Every publishable package of the workspace, found from `pnpm-workspace.yaml` (so packages added
 * later are checked without editing this list), in name order.
 */
export function publishedPackages(root: string): PublishedPackage[] {
  const found: PublishedPackage[] = [];
  for (const glob of workspaceGlobs(root)) {
    const dirs = glob.endsWith('/*')
      ? readdirSync(join(root, glob.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => join(root, glob.slice(0, -2), entry.name))
      : [join(root, glob)];
    for (const dir of dirs) {
      const manifestPath = join(dir, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
        name: string;
        version: string;
        private?: boolean;
        exports?: Record<string, unknown>;
      };
      if (manifest.private) continue;
      found.push({
        name: manifest.name,
        version: manifest.version,
        dir,
        slug: dir.split('/').at(-1)!,
        entryPoints: Object.keys(manifest.exports ?? { '.': '' })
          .filter((subpath) => !subpath.includes('*') && !subpath.endsWith('.json'))
          .map((subpath) =>
            subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`,
          ),
      });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}
