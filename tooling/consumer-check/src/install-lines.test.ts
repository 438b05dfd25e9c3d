import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { importedPackages, installedPackages, missingFromInstallLines } from './install-lines';
import { publishedPackages } from './workspace';

const root = resolve(import.meta.dirname, '../../..');

describe('install lines', () => {
  const readme = [
    '```sh',
    'npm install @adk/core zod kysely@0.28   # the basics',
    '```',
    'Then `pnpm add -D @adk/cli`.',
    '```ts',
    "import { LlmAgent } from '@adk/core';",
    "import { FakeModel } from '@adk/core/testing';",
    "import { readFile } from 'node:fs/promises';",
    "import { helper } from './helper.js';",
    "const { Kysely } = await import('kysely');",
    "import pg from 'pg';",
    '```',
  ].join('\n');

  it('reads the imports of the examples and the packages of the install commands', () => {
    expect(importedPackages(readme)).toEqual(['@adk/core', 'kysely', 'pg']);
    expect(installedPackages(readme)).toEqual(['@adk/cli', '@adk/core', 'kysely', 'zod']);
    expect(missingFromInstallLines(readme)).toEqual(['pg']);
  });

  it('name every package the examples of each README import', () => {
    const readmes = [
      join(root, 'README.md'),
      ...publishedPackages(root).map((pkg) => join(pkg.dir, 'README.md')),
    ];
    const missing = Object.fromEntries(
      readmes
        .map((file) => [relative(root, file), missingFromInstallLines(readFileSync(file, 'utf8'))])
        .filter(([, names]) => names!.length > 0),
    );
    expect(missing).toEqual({});
  });
});
