import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));

/** Every module specifier a source file imports or re-exports, type-only ones excluded. */
function runtimeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  const pattern = /^(?:import|export)\s+(?!type\s)[^;]*?from\s+'([^']+)';/gms;
  for (const match of source.matchAll(pattern)) specifiers.push(match[1]!);
  for (const match of source.matchAll(/^import\s+'([^']+)';/gm)) specifiers.push(match[1]!);
  return specifiers;
}

/** The bare (package) imports reachable from `entry` through relative runtime imports. */
function packagesReachableFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of runtimeImports(file)) {
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      const target = resolve(dirname(file), specifier);
      let path = `${target}.ts`;
      try {
        readFileSync(path);
      } catch {
        path = resolve(target, 'index.ts');
      }
      visit(path);
    }
  };
  visit(entry);
  return packages;
}

describe('@adk/core/testing entry points', () => {
  it('@adk/core/testing loads no test runner, so FakeModel works without vitest', () => {
    const packages = packagesReachableFrom(resolve(here, 'index.ts'));
    expect([...packages].filter((name) => !name.startsWith('node:'))).not.toContain('vitest');
    // the walk really follows imports: the suites' entry point does reach vitest
    expect(packagesReachableFrom(resolve(here, 'vitest/index.ts'))).toContain('vitest');
  });

  it('@adk/core/testing/vitest exports every conformance suite', async () => {
    const suites = await import('./vitest');
    expect(Object.keys(suites).sort()).toEqual([
      'artifactServiceConformance',
      'credentialServiceConformance',
      'liveRunConformance',
      'memoryServiceConformance',
      'modelProviderConformance',
      'sessionServiceConformance',
    ]);
  });
});
