/**
 * The consumer check: the packages as users install them. `pnpm consumer-check` (CI runs it).
 *
 * Builds and packs every publishable package, then per lane (Node 20 with kysely 0.28 and
 * better-sqlite3 12; Node 24 from the npm registry with kysely 0.29 and better-sqlite3 13) and per
 * package manager (npm, pnpm) installs the tarballs into a fresh project in a temporary folder,
 * compiles every complete TypeScript block of every README under strict +
 * exactOptionalPropertyTypes, and runs the documented examples. Then the newcomer's path: `adk
 * create my_agent --packages <tarballs>` from a folder outside the clone, the project installed as
 * created, `tsc`, its test, `adk run`, `adk web` (the page answers in Chromium) and `adk eval`;
 * on Node 20, better-sqlite3 13 must be refused with `SqlDriverMissingError`. Exits non-zero on
 * any failure.
 *
 * The lanes run at once (`--parallel N`, default all of them): most of a lane's time is package
 * installs and child processes waiting on each other, so on 2 cores three lanes at once take
 * about half as long as one after the other. Each step's heading names its lane and manager, and
 * so does the line that ends it.
 *
 * Node 20 and 24 run with npm and pnpm, Node 22 with npm (see `Lane.managers`).
 *
 * Options: `--lanes node20,node24`, `--managers npm,pnpm`, `--parallel N`, `--skip-build`,
 * `--keep` (keep the temporary folder). `ADK_CONSUMER_CHECK_CACHE` (default
 * `~/.cache/adk-consumer-check`) keeps Node 22 and 24 and the better-sqlite3 builds between runs.
 */
import { copyFileSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import {
  createPostgresSchema,
  dropPostgresSchema,
  POSTGRES_URL,
  postgresUnavailable,
} from '@adk/test-databases';

import { compileReadmes, compiledFile, type Readme } from './checks/readme-compile';
import { launchChromium } from './checks/chromium';
import type { Browser } from 'playwright-core';
import * as created from './checks/created-project';
import { startTimeGemini, startWeatherGemini } from './checks/fake-gemini';
import { newerDriverOnOldNode } from './checks/newer-driver';
import * as examples from './checks/run-examples';
import { createConsumerProject, type PackageManager } from './consumer-project';
import { LANES, type Lane } from './lanes';
import { needsBuild, provideBetterSqlite3 } from './native-addon';
import { packAll } from './pack';
import { readmeBlocks, type ReadmeBlock } from './readme-blocks';
import { CheckFailure, runCommand, step } from './run-command';
import { publishedPackages } from './workspace';

const root = resolve(import.meta.dirname, '../../..');
const { values } = parseArgs({
  options: {
    lanes: { type: 'string', default: LANES.map((lane) => lane.name).join(',') },
    parallel: { type: 'string', default: String(LANES.length) },
    managers: { type: 'string', default: 'npm,pnpm' },
    'skip-build': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const cacheDir =
  process.env.ADK_CONSUMER_CHECK_CACHE ?? join(homedir(), '.cache', 'adk-consumer-check');
const work = mkdtempSync(join(tmpdir(), 'adk-consumer-check-'));
const started = performance.now();
let failed = false;

function findBlock(readmes: readonly Readme[], id: string): ReadmeBlock {
  const block = readmes.flatMap((readme) => readme.blocks).find((candidate) => candidate.id === id);
  if (!block) throw new CheckFailure(`README block ${id} is missing: the check runs it`);
  return block;
}

async function main(): Promise<void> {
  console.log(`consumer check in ${work} (cache ${cacheDir})`);
  const parallel = Number(values.parallel);
  if (!Number.isInteger(parallel) || parallel < 1) {
    throw new CheckFailure(`--parallel takes an integer of at least 1, not "${values.parallel}"`);
  }
  const packages = publishedPackages(root);
  if (!values['skip-build']) {
    const built = step('build (turbo)');
    await runCommand('pnpm', ['build'], { cwd: root, timeoutMs: 900_000 });
    built();
  }
  const done = step(`pack ${packages.length} packages (what pnpm pack:all does)`);
  const tarballsDir = join(work, 'tarballs');
  const tarballs = await packAll(packages, tarballsDir);
  done(tarballs.map((tarball) => tarball.pkg.name).join(' '));

  const readmes: Readme[] = [
    {
      file: 'README.md',
      blocks: readmeBlocks(readFileSync(join(root, 'README.md'), 'utf8'), 'root'),
    },
    ...packages.map((pkg) => ({
      file: relative(root, join(pkg.dir, 'README.md')),
      blocks: readmeBlocks(readFileSync(join(pkg.dir, 'README.md'), 'utf8'), pkg.slug),
    })),
  ];
  const firstExample = compiledFile(findBlock(readmes, 'root-1'));
  const sessionExample = compiledFile(findBlock(readmes, 'session-sql-1'));
  const coreExample = compiledFile(findBlock(readmes, 'core-1'));
  const cliAgent = findBlock(readmes, 'cli-1');

  const context: LaneContext = {
    tarballs,
    tarballsDir,
    readmes,
    packages,
    firstExample,
    sessionExample,
    coreExample,
    cliAgent,
    skipPostgres: await postgresUnavailable(),
    browser: await launchChromium(),
  };
  const lanes = LANES.filter((candidate) => values.lanes.split(',').includes(candidate.name));
  try {
    await inParallel(lanes, parallel, (lane) => checkLane(lane, context));
  } finally {
    await context.browser.close();
  }
}

/** What every lane checks against: the packed tarballs, the README blocks, the browser. */
interface LaneContext {
  tarballs: Awaited<ReturnType<typeof packAll>>;
  tarballsDir: string;
  readmes: Readme[];
  packages: ReturnType<typeof publishedPackages>;
  firstExample: string;
  sessionExample: string;
  coreExample: string;
  cliAgent: ReadmeBlock;
  skipPostgres: string | undefined;
  browser: Browser;
}

/**
 * Run `work` for every item, at most `limit` at once. Every started item is awaited before the
 * first failure is thrown, so no lane is left running while the check cleans up.
 */
async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  const failures: unknown[] = [];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      try {
        await work(item);
      } catch (error) {
        failures.push(error);
        queue.length = 0;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  // The first failure ends the check; any other lane's is printed, not lost.
  for (const other of failures.slice(1)) {
    console.error(`\nalso failed: ${other instanceof Error ? other.message : String(other)}`);
  }
  if (failures.length > 0) throw failures[0];
}

/**
 * One lane: its Node.js, then per package manager a full project (README blocks, examples, the
 * created project). Each lane has its own fake Gemini servers, since some checks count the
 * requests theirs received; the package managers run one after the other, sharing the lane's
 * better-sqlite3 build.
 */
async function checkLane(lane: Lane, context: LaneContext): Promise<void> {
  const { tarballs, tarballsDir, readmes, packages, browser, skipPostgres } = context;
  const { firstExample, sessionExample, coreExample, cliAgent } = context;
  const gemini = await startWeatherGemini();
  const timeGemini = await startTimeGemini();
  try {
    let done = step(`${lane.name}: Node.js`);
    const runtime = await lane.runtime(cacheDir);
    done(runtime.version);
    const managers = values.managers.split(',') as PackageManager[];
    for (const manager of managers.filter((candidate) => lane.managers.includes(candidate))) {
      const label = `${lane.name} ${manager}`;
      done = step(
        `${label}: install ${tarballs.length} tarballs + ${Object.keys(lane.registry).join(' ')}`,
      );
      const project = await createConsumerProject({
        dir: join(work, lane.name, manager),
        manager,
        runtime,
        tarballs,
        registry: lane.registry,
      });
      done();
      done = step(
        `${label}: compile README blocks (strict, exactOptionalPropertyTypes, skipLibCheck off)`,
      );
      const compiled = await compileReadmes(
        project,
        readmes,
        packages.flatMap((pkg) => pkg.entryPoints),
      );
      done(`${compiled.blocks} blocks from ${readmes.length} READMEs`);
      done = step(`${label}: session-sql before better-sqlite3 is built`);
      const topLevelDriver = join(project.dir, 'node_modules', 'better-sqlite3');
      done(
        needsBuild(realpathSync(topLevelDriver))
          ? await examples.sessionSqlWithoutAddon(project, sessionExample)
          : 'nothing to build: this better-sqlite3 ships prebuilt binaries',
      );
      done = step(`${label}: better-sqlite3 native addon`);
      done(
        (
          await provideBetterSqlite3(
            join(project.dir, 'node_modules'),
            runtime,
            join(cacheDir, 'native'),
          )
        ).join(', '),
      );
      done = step(`${label}: session-sql README example on SQLite`);
      done(await examples.sessionSqlExample(project, sessionExample, 'sqlite:./sessions.db'));
      done = step(`${label}: session-sql README example on PostgreSQL`);
      if (skipPostgres) {
        done(`skipped: ${skipPostgres}`);
      } else {
        const schema = `consumer_check_${lane.name}_${manager}_${process.pid}`;
        await createPostgresSchema(schema);
        try {
          const url = `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
          done(await examples.sessionSqlExample(project, sessionExample, url));
        } finally {
          await dropPostgresSchema(schema);
        }
      }
      done = step(`${label}: first README example without an API key`);
      done(await examples.firstExampleWithoutKey(project, firstExample));
      done = step(`${label}: first README example against the fake Gemini server`);
      done(await examples.firstExampleAgainstFakeGemini(project, firstExample, gemini));
      done = step(`${label}: adk run with the CLI README agent`);
      done(
        await examples.cliRunsReadmeAgent(
          project,
          join('readme', cliAgent.id, cliAgent.path ?? ''),
          gemini,
        ),
      );
      done = step(`${label}: startTelemetry without @opentelemetry/sdk-node`);
      done(await examples.telemetryWithoutSdk(project));
      done = step(`${label}: CommonJS require of the ESM packages`);
      done(await examples.commonJsRequire(project));
      done = step(`${label}: adk create --packages, from outside the clone; install as created`);
      const createdProject = await created.createAndInstall({
        root,
        tarballsDir,
        parentDir: join(work, lane.name, `${manager}-created`),
        manager,
        runtime,
        nativeCache: join(cacheDir, 'native'),
      });
      done(`installed in ${(createdProject.installMs / 1000).toFixed(0)} s`);
      done = step(`${label}: created project: typecheck (tsc) and test`);
      done(await created.typecheckAndTest(createdProject));
      done = step(`${label}: created project: adk run (npm start)`);
      done(await created.adkRun(createdProject, timeGemini));
      done = step(`${label}: created project: adk web in Chromium`);
      done(await created.adkWeb(createdProject, timeGemini, browser));
      done = step(`${label}: created project: adk eval`);
      done(await created.adkEval(createdProject, timeGemini));
      if (manager === 'pnpm' && Number(runtime.version.slice(1).split('.')[0]) < 22) {
        done = step(`${label}: better-sqlite3 13 on Node ${runtime.version}`);
        done(
          await newerDriverOnOldNode({
            dir: join(work, lane.name, 'newer-driver'),
            runtime,
            tarballs,
            example: join(project.dir, sessionExample),
          }),
        );
      }
      if (manager === 'npm') {
        const core = tarballs.find((tarball) => tarball.pkg.name === '@adk/core')!;
        done = step(`${lane.name}: npm install @adk/core zod only`);
        const minimal = await createConsumerProject({
          dir: join(work, lane.name, 'minimal'),
          manager,
          runtime,
          tarballs: [core],
          registry: { zod: '^4.0.0' },
        });
        copyFileSync(join(project.dir, coreExample), join(minimal.dir, 'core-example.js'));
        done(await examples.minimalProject(minimal, 'core-example.js'));
      }
    }
  } catch (error) {
    // Lanes interleave their output: say which one failed.
    if (error instanceof CheckFailure) {
      throw new CheckFailure(`${lane.name}: ${error.message}`, error.output);
    }
    throw error;
  } finally {
    await Promise.all([gemini.close(), timeGemini.close()]);
  }
}

try {
  await main();
} catch (error) {
  failed = true;
  console.error(
    `\nCONSUMER CHECK FAILED: ${error instanceof Error ? error.message : String(error)}`,
  );
  if (error instanceof CheckFailure && error.output) console.error(error.output);
  else if (!(error instanceof CheckFailure)) console.error(error);
} finally {
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  if (values.keep || failed) console.log(`\nprojects kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
  console.log(
    failed
      ? `\nconsumer check failed after ${minutes} min`
      : `\nconsumer check passed in ${minutes} min`,
  );
}
process.exitCode = failed ? 1 : 0;
