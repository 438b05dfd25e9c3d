import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The official ADK web UI release the browser tests drive. */
export const ADK_DEVTOOLS_VERSION = '2.0.0';

/**
 * The folder of the official ADK web UI (the Angular build inside `@google/adk-devtools`),
 * fetched once with `npm pack` into `node_modules/.cache`. Only the browser bundle is used: the
 * package's own dependencies (an Express server, every MikroORM driver, some needing Node 22) are
 * not installed.
 */
export function adkWebUiDir(): string {
  const cache = fileURLToPath(
    new URL(`../node_modules/.cache/adk-devtools-${ADK_DEVTOOLS_VERSION}`, import.meta.url),
  );
  const browser = join(cache, 'package', 'dist', 'browser');
  if (existsSync(join(browser, 'index.html'))) return browser;
  const staging = `${cache}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  execFileSync('npm', ['pack', `@google/adk-devtools@${ADK_DEVTOOLS_VERSION}`, '--silent'], {
    cwd: staging,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const tarball = readdirSync(staging).find((file) => file.endsWith('.tgz'));
  if (!tarball)
    throw new Error(`npm pack @google/adk-devtools@${ADK_DEVTOOLS_VERSION} produced no tarball`);
  execFileSync('tar', ['xzf', tarball], { cwd: staging });
  rmSync(cache, { recursive: true, force: true });
  renameSync(staging, cache);
  return browser;
}
