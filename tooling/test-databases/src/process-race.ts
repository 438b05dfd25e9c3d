import { fork, type ChildProcess } from 'node:child_process';

import { bundledScript } from './bundled-script';

/** What a race worker answers for one round: `ok`, or the error's name and message. */
export type RaceReply = { ok: true } | { ok: false; error: string; message: string };

/**
 * Forked OS processes running the same step at the same moment, round after round.
 *
 * Each worker script (a TypeScript file, run from its bundle: see {@link bundledScript}) must send
 * `'ready'` once it is loaded, then answer every message `{ round, args }` with a
 * {@link RaceReply} after doing its step for `args`. {@link ProcessRace.round} sends a round to
 * every worker only once all are ready, so the steps start within the same few hundred
 * microseconds.
 *
 * @example
 * ```ts
 * const race = await ProcessRace.start(workerPath, 2, packageRoot);
 * const replies = await race.round([databaseFile]);
 * await race.stop();
 * ```
 */
export class ProcessRace {
  readonly #children: ChildProcess[];
  #round = 0;

  private constructor(children: ChildProcess[]) {
    this.#children = children;
  }

  /** Fork `count` workers of `script` (cwd `cwd`) and wait until each says it is ready. */
  static async start(script: string, count: number, cwd: string): Promise<ProcessRace> {
    const bundle = await bundledScript(script);
    const children = Array.from({ length: count }, () =>
      fork(bundle, [], {
        cwd,
        execArgv: [],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
    );
    const race = new ProcessRace(children);
    await Promise.all(children.map((child) => race.#reply(child, 'ready')));
    return race;
  }

  /** Run one round: every worker gets `args` at once; resolves with their replies, in fork order. */
  async round(args: readonly string[]): Promise<RaceReply[]> {
    const round = ++this.#round;
    const replies = this.#children.map((child) => this.#reply(child, round));
    for (const child of this.#children) child.send({ round, args });
    return Promise.all(replies);
  }

  /** Disconnect every worker and wait for it to exit. */
  async stop(): Promise<void> {
    await Promise.all(
      this.#children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.disconnect();
        await exited;
      }),
    );
  }

  #reply(child: ChildProcess, expected: number | 'ready'): Promise<RaceReply> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => {
        child.off('message', onMessage);
        reject(new TypeError(`race worker exited with ${code} before answering ${expected}`));
      };
      const onMessage = (message: { round?: number; reply?: RaceReply } | 'ready') => {
        if (
          expected === 'ready'
            ? message !== 'ready'
            : typeof message !== 'object' || message.round !== expected
        )
          return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(expected === 'ready' ? { ok: true } : (message as { reply: RaceReply }).reply);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  }
}

/**
 * The worker side of {@link ProcessRace}: announce readiness, then run `step(args)` for every
 * round and answer with its outcome (set `ADK_RACE_DEBUG=1` to print failures' stacks). When the
 * parent disconnects, `close` runs (release pools and
 * files there) and the process exits.
 */
export function serveRaceRounds(
  step: (args: string[]) => Promise<void>,
  close?: () => Promise<void>,
): void {
  const send = process.send?.bind(process);
  if (!send) throw new TypeError('serveRaceRounds must run in a forked child process');
  process.on('message', (message: { round: number; args: string[] }) => {
    void step(message.args).then(
      () => send({ round: message.round, reply: { ok: true } }),
      (error: unknown) => {
        const typed = error as { name?: string; message?: string; stack?: string };
        if (process.env.ADK_RACE_DEBUG) console.error(typed.stack);
        send({
          round: message.round,
          reply: {
            ok: false,
            error: typed.name ?? 'Error',
            message: typed.message ?? String(error),
          },
        });
      },
    );
  });
  process.once('disconnect', () => {
    void (close?.() ?? Promise.resolve()).finally(() => process.exit(0));
  });
  send('ready');
}
