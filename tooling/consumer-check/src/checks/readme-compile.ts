import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import type { ConsumerProject } from '../consumer-project';
import { envFor } from '../node-runtime';
import type { ReadmeBlock } from '../readme-blocks';
import { CheckFailure, runCommand } from '../run-command';

/** A README of the repository and its complete TypeScript blocks. */
export interface Readme {
  /** Path relative to the repository root, for messages. */
  file: string;
  blocks: ReadmeBlock[];
}

/** The compiler options README blocks must pass: the strictest a user is likely to set. */
export const README_COMPILER_OPTIONS = {
  strict: true,
  exactOptionalPropertyTypes: true,
  // our .d.ts files are checked too, under the same options
  skipLibCheck: false,
  module: 'nodenext',
  moduleResolution: 'nodenext',
  target: 'es2022',
  lib: ['es2023'],
  types: ['node'],
  rootDir: '.',
  outDir: 'readme-js',
  noEmitOnError: true,
  declaration: false,
  sourceMap: false,
} as const;

/** Where a block's file goes inside the project: `readme/<id>.ts` or `readme/<id>/<its path>`. */
export function blockFile(block: ReadmeBlock): string {
  return block.path ? join('readme', block.id, block.path) : join('readme', `${block.id}.ts`);
}

/** Where the compiled JavaScript of a block lands. */
export function compiledFile(block: ReadmeBlock): string {
  return join('readme-js', blockFile(block).replace(/\.ts$/, '.js'));
}

/** A CommonJS TypeScript file importing the packages, to prove `require` works (Node's require(esm)). */
const CJS_CHECK = `import { Runner, LlmAgent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';

const agent = new LlmAgent({ name: 'cjs', model: new FakeModel({ responses: ['ok'] }) });
console.log(typeof Runner, agent.name, typeof require);
`;

/**
 * Writes every block as its own module, a module importing every entry point of `entryPoints`, (a trailing `export {}` makes top-level `await` legal in
 * any block) plus a CommonJS file, and compiles them in one `tsc` run with
 * {@link README_COMPILER_OPTIONS}, emitting JavaScript to run. A type error anywhere fails, with
 * the README and line of the block at fault.
 */
export async function compileReadmes(
  project: ConsumerProject,
  readmes: readonly Readme[],
  entryPoints: readonly string[],
): Promise<{ blocks: number; ms: number }> {
  let count = 0;
  // Every entry point of every package, so each published .d.ts is checked, used by a README or not.
  mkdirSync(join(project.dir, 'readme'), { recursive: true });
  writeFileSync(
    join(project.dir, 'readme', 'every-entry-point.ts'),
    `${entryPoints.map((entry, index) => `import * as entry${index} from '${entry}';`).join('\n')}\nexport const entryPoints = [${entryPoints.map((_, index) => `entry${index}`).join(', ')}];\n`,
  );
  writeWebTypeShims(project.dir);
  const origin = new Map<string, string>();
  for (const readme of readmes) {
    for (const block of readme.blocks) {
      const file = join(project.dir, blockFile(block));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${block.source}\nexport {};\n`);
      origin.set(blockFile(block), `${readme.file}:${block.line}`);
      count++;
    }
  }
  mkdirSync(join(project.dir, 'cjs'), { recursive: true });
  writeFileSync(join(project.dir, 'cjs', 'require-core.cts'), CJS_CHECK);
  writeFileSync(
    join(project.dir, 'tsconfig.readme.json'),
    JSON.stringify(
      {
        compilerOptions: README_COMPILER_OPTIONS,
        include: ['readme/**/*.ts', 'cjs/**/*.cts'],
      },
      null,
      2,
    ),
  );
  const result = await runCommand(
    join(project.runtime.binDir, 'node'),
    ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.readme.json', '--pretty', 'false'],
    { cwd: project.dir, env: envFor(project.runtime), allowFailure: true, timeoutMs: 600_000 },
  );
  if (result.code !== 0) {
    // name the README line of each failing block
    const annotated = result.stdout.replace(/^(readme\/[^(]+)\((\d+),/gm, (match, path: string) => {
      const where = origin.get(path);
      return where ? `${where} (block ${path}) ${match}` : match;
    });
    throw new CheckFailure(
      `README blocks do not compile under strict + exactOptionalPropertyTypes (${project.manager}, Node ${project.runtime.version})`,
      annotated,
    );
  }
  return { blocks: count, ms: result.ms };
}

/**
 * `@types/node` 20 declares `fetch` and `Headers` but not the DOM's `HeadersInit` name, which the
 * MCP SDK's .d.ts files use; with `skipLibCheck` off a Node 20 project needs the name declared.
 * Written only when the installed `@types/node` lacks it (Node 22 and 24 typings declare it).
 */
function writeWebTypeShims(dir: string): void {
  const globals = join(dir, 'node_modules', '@types', 'node', 'globals.d.ts');
  const web = join(dir, 'node_modules', '@types', 'node', 'web-globals', 'fetch.d.ts');
  const declared = [globals, web].some(
    (file) => existsSync(file) && readFileSync(file, 'utf8').includes('HeadersInit'),
  );
  if (declared) return;
  writeFileSync(
    join(dir, 'readme', 'web-type-shims.d.ts'),
    "// @types/node 20 has no global HeadersInit; the MCP SDK's types name it.\ntype HeadersInit = ConstructorParameters<typeof Headers>[0];\n",
  );
}
