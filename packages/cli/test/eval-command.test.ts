import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

import { UsageError, evalCommand } from '../src';
import { spawnTracked } from './child-processes';

const app = fileURLToPath(new URL('./fixtures/eval/weather_eval', import.meta.url));
const bin = fileURLToPath(new URL('../bin/adk.js', import.meta.url));
const history = join(app, '.adk');

afterEach(() => rmSync(history, { recursive: true, force: true }));

function capture() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  return { io: { stdout, stderr }, out: () => out, err: () => err };
}

describe('adk eval', () => {
  it('passes an eval set: progress, summary table, exit 0, results in .adk/eval_history', async () => {
    const { io, out, err } = capture();
    const code = await evalCommand([app, join(app, 'pass.evalset.json')], io);
    expect(code).toBe(0);
    expect(err()).toContain('pass.evalset.json 2/2');
    expect(out()).toMatch(/paris\s+tool_trajectory_avg_score\s+1\.000\s+1\s+PASSED/);
    expect(out()).toMatch(/hello\s+response_match_score\s+1\.000\s+0\.8\s+PASSED/);
    expect(out()).toContain('pass_set: 2 passed, 0 failed');
    const files = readdirSync(join(history, 'eval_history'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^weather_eval_pass_set_[\d.]+\.evalset_result\.json$/);
    const inner = JSON.parse(
      JSON.parse(readFileSync(join(history, 'eval_history', files[0]!), 'utf8')) as string,
    ) as {
      eval_case_results: { eval_id: string; final_eval_status: number }[];
    };
    expect(inner.eval_case_results.map((r) => [r.eval_id, r.final_eval_status])).toEqual([
      ['paris', 1],
      ['hello', 1],
    ]);
  });

  it('selects cases with file:case and prints detailed results', async () => {
    const { io, out } = capture();
    const code = await evalCommand(
      [
        app,
        `${join(app, 'pass.evalset.json')}:paris`,
        '--print_detailed_results',
        '--no_save',
        '--num_runs',
        '2',
      ],
      io,
    );
    expect(code).toBe(0);
    expect(out()).not.toMatch(/^hello/m);
    expect(out().match(/== paris: PASSED/g)).toHaveLength(2);
    expect(out()).toContain('tools:    [{"name":"get_weather","args":{"city":"Paris"}}]');
    expect(existsSync(history)).toBe(false);
  });

  it('exits 1 when a threshold fails, showing the scores', async () => {
    const { io, out } = capture();
    const code = await evalCommand([app, join(app, 'fail.evalset.json'), '--no_save'], io);
    expect(code).toBe(1);
    expect(out()).toMatch(/rome_expected_lyon\s+tool_trajectory_avg_score\s+0\.000\s+1\s+FAILED/);
    expect(out()).toContain('fail_set: 0 passed, 1 failed');
  });

  it('reports a case whose model call failed as an error, not a score, and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adk-eval-cli-'));
    try {
      const cassette = join(dir, 'empty.cassette.jsonl');
      writeFileSync(cassette, '');
      const { io, out } = capture();
      const code = await evalCommand(
        [app, join(app, 'pass.evalset.json'), '--replay', cassette, '--no_save'],
        io,
      );
      expect(code).toBe(1);
      expect(out()).toMatch(/paris\s+-\s+-\s+-\s+ERROR/);
      expect(out()).toContain('REPLAY_MISS');
      expect(out()).toContain('the cassette is empty');
      expect(out()).not.toMatch(/0\.000/);
      expect(out()).toContain('pass_set: 0 passed, 0 failed, 0 not evaluated, 2 with errors');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('uses --config_file_path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adk-eval-cli-'));
    const config = join(dir, 'config.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(config, JSON.stringify({ criteria: { response_match_score: 0.2 } }));
    const { io, out } = capture();
    const code = await evalCommand(
      [app, join(app, 'fail.evalset.json'), '--config_file_path', config, '--no_save'],
      io,
    );
    // "It is sunny in Rome." vs "It is rainy in Lyon.": overlap [it, is, in] of 5 -> 0.6 >= 0.2.
    expect(code).toBe(0);
    expect(out()).toMatch(/response_match_score\s+0\.600\s+0\.2\s+PASSED/);
    expect(out()).not.toContain('tool_trajectory_avg_score');
    rmSync(dir, { recursive: true, force: true });
  });

  it('records then replays the model calls', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adk-eval-cli-'));
    const cassette = join(dir, 'c.jsonl');
    expect(
      await evalCommand(
        [app, join(app, 'pass.evalset.json'), '--record', cassette, '--no_save'],
        capture().io,
      ),
    ).toBe(0);
    expect(readFileSync(cassette, 'utf8').trim().split('\n')).toHaveLength(3);
    const { io, out } = capture();
    expect(
      await evalCommand(
        [app, join(app, 'pass.evalset.json'), '--replay', cassette, '--no_save'],
        io,
      ),
    ).toBe(0);
    expect(out()).toContain('pass_set: 2 passed, 0 failed');
    rmSync(dir, { recursive: true, force: true });
  });

  it('rejects bad usage with a UsageError', async () => {
    await expect(evalCommand([app], capture().io)).rejects.toThrow(UsageError);
    await expect(
      evalCommand([app, 'x.evalset.json', '--num_runs', '0'], capture().io),
    ).rejects.toThrow(/--num_runs/);
    await expect(
      evalCommand([app, 'x.json', '--record', 'a', '--replay', 'b'], capture().io),
    ).rejects.toThrow(/not both/);
  });

  it('runs through the adk launcher with the exit code of the eval', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawnTracked(process.execPath, [bin, ...args], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    const failed = await run(['eval', app, join(app, 'fail.evalset.json'), '--no_save']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('fail_set: 0 passed, 1 failed');
    const usage = await run(['eval', app]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('adk eval needs an agent and at least one eval set');
  });
});
