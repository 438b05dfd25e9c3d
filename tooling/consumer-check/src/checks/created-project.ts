import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { FakeProviderServer } from '@adk/fake-provider-servers';
import type { Browser } from 'playwright-core';

import type { ConsumerProject, PackageManager } from '../consumer-project';
import { provideBetterSqlite3 } from '../native-addon';
import { envFor, type NodeRuntime } from '../node-runtime';
import { CheckFailure, expectThat, runCommand, type CommandResult } from '../run-command';
import { exampleEnv } from './run-examples';

/** The name `adk create` gets: the app `adk web ..` serves is named after its folder. */
export const CREATED_NAME = 'my_agent';

const TIME_ANSWER = /It is \d\d:\d\d:\d\d in Tokyo\./;
const both = (result: CommandResult) => `${result.stdout}\n${result.stderr}`;

/** Options of {@link createAndInstall}. */
export interface CreatedProjectOptions {
  /** The clone: `packages/cli/bin/adk.js` is the `adk` a newcomer links globally. */
  root: string;
  /** The folder of tarballs (what `pnpm pack:all` writes). */
  tarballsDir: string;
  /** The folder to create the project in, outside the clone. */
  parentDir: string;
  manager: PackageManager;
  runtime: NodeRuntime;
  /** Where built better-sqlite3 addons are cached (see `provideBetterSqlite3`). */
  nativeCache: string;
}

/**
 * `adk create my_agent --packages <tarballs>` run from a folder outside the clone with the clone's
 * launcher, then the project installed as created by npm or pnpm. Dependency build scripts are
 * skipped and better-sqlite3's addon supplied from the cache (a build is minutes on 2 cores); the
 * project's own approval of that build (`allowScripts`, `onlyBuiltDependencies`) is what a user's
 * install runs.
 */
export async function createAndInstall(options: CreatedProjectOptions): Promise<ConsumerProject> {
  const { manager, runtime } = options;
  mkdirSync(options.parentDir, { recursive: true });
  const node = join(runtime.binDir, 'node');
  const launcher = join(options.root, 'packages', 'cli', 'bin', 'adk.js');
  await runCommand(node, [launcher, 'create', CREATED_NAME, '--packages', options.tarballsDir], {
    cwd: options.parentDir,
    env: envFor(runtime),
  });
  const dir = join(options.parentDir, CREATED_NAME);
  const args =
    manager === 'npm'
      ? ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error']
      : ['install', '--ignore-scripts', '--reporter=append-only'];
  const { ms } = await runCommand(manager, args, {
    cwd: dir,
    env: envFor(runtime),
    timeoutMs: 900_000,
  });
  await provideBetterSqlite3(join(dir, 'node_modules'), runtime, options.nativeCache);
  return { dir, manager, runtime, installMs: ms };
}

/** `<manager> run <script>` in the project, on the lane's Node, without provider keys. */
function runScript(
  project: ConsumerProject,
  script: string,
  options: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<CommandResult> {
  return runCommand(project.manager, ['run', '--silent', script], {
    cwd: project.dir,
    env: exampleEnv(project, options.env),
    ...(options.input === undefined ? {} : { input: options.input }),
    timeoutMs: 300_000,
  });
}

const geminiEnv = (gemini: FakeProviderServer) => ({
  GEMINI_API_KEY: 'consumer-check-key',
  GOOGLE_GEMINI_BASE_URL: gemini.url,
});

/** `typecheck` (tsc, strict, NodeNext) and `test` (vitest with FakeModel), as created. */
export async function typecheckAndTest(project: ConsumerProject): Promise<string> {
  await runScript(project, 'typecheck');
  const test = await runScript(project, 'test');
  expectThat(/1 passed/.test(both(test)), 'the created project ran no passing test', both(test));
  return 'tsc clean, 1 test passed';
}

/** `start` (adk run agent.ts) answers a question through the tool, against the fake Gemini. */
export async function adkRun(
  project: ConsumerProject,
  gemini: FakeProviderServer,
): Promise<string> {
  const result = await runScript(project, 'start', {
    env: geminiEnv(gemini),
    input: 'What time is it in Tokyo?\nexit\n',
  });
  expectThat(TIME_ANSWER.test(result.stdout), '`adk run agent.ts` did not answer', both(result));
  return 'answered through get_time';
}

/** `eval` (adk eval . evals/time.evalset.json) passes against the fake Gemini. */
export async function adkEval(
  project: ConsumerProject,
  gemini: FakeProviderServer,
): Promise<string> {
  const result = await runScript(project, 'eval', { env: geminiEnv(gemini) });
  return result.stdout.trim().split('\n').at(-1) ?? 'passed';
}

/**
 * `adk web ..` (the project's `web` script, on a free port): the page loads in Chromium, lists
 * the app, and a message sent from it gets the agent's answer.
 */
export async function adkWeb(
  project: ConsumerProject,
  gemini: FakeProviderServer,
  browser: Browser,
): Promise<string> {
  const server = spawn(
    join(project.runtime.binDir, 'node'),
    ['node_modules/@adk/cli/bin/adk.js', 'web', '..', '--port', '0'],
    { cwd: project.dir, env: exampleEnv(project, geminiEnv(gemini)), stdio: 'pipe' },
  );
  let output = '';
  const exited = new Promise<void>((resolve) => server.on('exit', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new CheckFailure('adk web did not start', output)),
        120_000,
      );
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /serving .* on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      };
      server.stdout.on('data', read);
      server.stderr.on('data', read);
      server.on('exit', (code) => {
        clearTimeout(timer);
        reject(new CheckFailure(`adk web exited with ${String(code)}`, output));
      });
    });
    const page = await browser.newPage();
    try {
      await page.goto(url);
      await page.locator(`#app-select option[value="${CREATED_NAME}"]`).waitFor({
        state: 'attached',
        timeout: 60_000,
      });
      await page.locator('#message-input').fill('What time is it in Tokyo?');
      await page.locator('#message-input').press('Enter');
      const reply = page.locator('.bubble.agent:not(.streaming)', { hasText: 'in Tokyo.' });
      await reply.first().waitFor({ timeout: 60_000 });
      const text = (await reply.first().textContent()) ?? '';
      expectThat(TIME_ANSWER.test(text), `the web page showed "${text}"`, output);
    } catch (error) {
      if (error instanceof CheckFailure) throw error;
      throw new CheckFailure(`adk web in Chromium: ${(error as Error).message}`, output);
    } finally {
      await page.close();
    }
    return `${url}: app listed, answer shown`;
  } finally {
    server.kill('SIGTERM');
    await exited;
  }
}
