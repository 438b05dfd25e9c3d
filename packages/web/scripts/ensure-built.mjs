// Build the web UI with Vite when its build is missing or older than its sources. Plain
// JavaScript (no build needed to run it) for test set-ups in a source checkout:
//   import { ensureWebUiBuilt } from '@adk/web/ensure-built';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('../', import.meta.url));

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Build when `dist/app/index.html` is missing or older than `src/app/`, `index.html` or
 * `vite.config.ts`. Does nothing in a published copy (no sources). Returns true when it built.
 */
export function ensureWebUiBuilt() {
  const sources = join(packageDir, 'src', 'app');
  if (!existsSync(sources)) return false;
  const built = join(packageDir, 'dist', 'app', 'index.html');
  const newest = Math.max(
    newestSource(sources),
    statSync(join(packageDir, 'index.html')).mtimeMs,
    statSync(join(packageDir, 'vite.config.ts')).mtimeMs,
  );
  if (existsSync(built) && statSync(built).mtimeMs >= newest) return false;
  const require = createRequire(join(packageDir, 'package.json'));
  const vite = join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: packageDir,
    stdio: 'inherit',
  });
  return true;
}
