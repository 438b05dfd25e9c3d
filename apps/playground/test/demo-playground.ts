import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { listen, type RunningServer } from '@adk/server';
import { afterEach, beforeEach } from 'vitest';

import { createPlayground, DemoModel, loadConfig, type Playground } from '../src';

/** The playground a test runs against (read its fields inside the test: each test has its own). */
export interface DemoPlayground {
  /** The playground's folder: its SQLite sessions and jobs under `db/`, its sandbox under `.adk/`. */
  readonly dir: string;
  readonly playground: Playground;
  /** The playground's app, listening on a free port. */
  readonly server: RunningServer;
  /** Close the playground and start it again on the same folder (what a restart keeps). */
  restart(): Promise<void>;
}

/**
 * For each test of the file: a playground on the demo model (answering at once) with SQLite
 * sessions in a new temporary folder `<tempPrefix>…`, served on a free port; closed and its folder
 * removed after the test.
 */
export function demoPlaygroundEachTest(tempPrefix: string): DemoPlayground {
  let dir: string;
  let playground: Playground;
  let server: RunningServer;
  async function start(): Promise<void> {
    const config = loadConfig(
      { ADK_SESSION_URL: `sqlite:${join(dir, 'db', 'playground.db')}` },
      dir,
    );
    playground = await createPlayground(config, { model: new DemoModel({ wordDelayMs: 0 }) });
    server = await listen(playground.app, { port: 0 });
  }
  async function stop(): Promise<void> {
    await server.close();
    await playground.close();
  }
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), tempPrefix));
    await start();
  });
  afterEach(async () => {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    get playground() {
      return playground;
    },
    get server() {
      return server;
    },
    async restart() {
      await stop();
      await start();
    },
  };
}
