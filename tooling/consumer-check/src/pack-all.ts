/**
 * `pnpm pack:all` (root script, after `pnpm build`): packs every publishable package into one
 * folder (default `<clone>/packed`, or `--out DIR`), the tarballs `adk create --packages DIR`
 * installs from. Refuses a folder holding anything but tarballs (it is emptied first).
 */
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { packAll } from './pack';
import { CheckFailure } from './run-command';
import { publishedPackages } from './workspace';

const root = resolve(import.meta.dirname, '../../..');
const { values } = parseArgs({ options: { out: { type: 'string' } } });
// `pnpm --filter` runs this in the package's folder: a relative --out is from where pnpm was run.
const out = resolve(process.env.INIT_CWD ?? process.cwd(), values.out ?? resolve(root, 'packed'));

try {
  const strangers = existsSync(out)
    ? readdirSync(out).filter((name) => !name.endsWith('.tgz') && !name.startsWith('.'))
    : [];
  if (strangers.length > 0) {
    throw new CheckFailure(
      `${out} holds other files (${strangers.slice(0, 3).join(', ')}): pass an empty folder or one of tarballs (--out DIR)`,
    );
  }
  const tarballs = await packAll(publishedPackages(root), out);
  console.log(`${tarballs.length} packages packed into ${out}:`);
  for (const tarball of tarballs) console.log(`  ${tarball.path.slice(out.length + 1)}`);
  console.log(`\nNext: adk create my_agent --packages ${out}`);
} catch (error) {
  console.error(error instanceof CheckFailure ? error.message : error);
  if (error instanceof CheckFailure && error.output) console.error(error.output);
  process.exitCode = 1;
}
