/** The package a bare import specifier names: `@adk/core/testing` → `@adk/core`, `zod` → `zod`. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) {
    return undefined;
  }
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const FENCE = /^```(\S*)[^\n]*\n([\s\S]*?)^```\s*$/gm;
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
const INSTALL = /\b(?:npm\s+(?:install|i|add)|pnpm\s+(?:add|install|i)|yarn\s+add)\b([^\n`#|&;]*)/g;

/** Packages imported by the TypeScript blocks of a README (fragments included), sorted. */
export function importedPackages(markdown: string): string[] {
  const found = new Set<string>();
  for (const fence of markdown.matchAll(FENCE)) {
    if (!['ts', 'typescript', 'js', 'javascript'].includes(fence[1]!)) continue;
    for (const match of fence[2]!.matchAll(IMPORT)) {
      const name = packageOf(match[1]!);
      if (name) found.add(name);
    }
  }
  return [...found].sort();
}

/**
 * Packages named by the install commands of a README (`npm install …`, `pnpm add …`, in shell
 * blocks or inline code), without their version (`kysely@0.28` → `kysely`), sorted.
 */
export function installedPackages(markdown: string): string[] {
  const found = new Set<string>();
  for (const match of markdown.matchAll(INSTALL)) {
    for (const word of match[1]!.trim().split(/\s+/)) {
      if (!word || word.startsWith('-')) continue;
      const name = word.startsWith('@') ? `@${word.slice(1).split('@')[0]!}` : word.split('@')[0]!;
      if (/^(@[\w.-]+\/)?[\w.-]+$/.test(name)) found.add(name);
    }
  }
  return [...found].sort();
}

/** What a README's examples import that none of its install commands names. */
export function missingFromInstallLines(markdown: string): string[] {
  const installed = new Set(installedPackages(markdown));
  return importedPackages(markdown).filter((name) => !installed.has(name));
}
