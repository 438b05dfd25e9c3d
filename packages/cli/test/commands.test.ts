import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import packageJson from '../package.json' with { type: 'json' };
import {
  chat,
  COMMANDS,
  createProject,
  loadApps,
  main,
  openArtifactStore,
  openMemoryStore,
  serve,
  type ServeHandle,
} from '../src';
import { spawnTracked } from './child-processes';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const mixedDir = join(fixtures, 'mixed');
const bin = fileURLToPath(new URL('../bin/adk.js', import.meta.url));
const packageDir = fileURLToPath(new URL('../', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adk-cli-commands-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function runBin(
  args: string[],
  options: { stdin?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawnTracked(process.execPath, [bin, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      cwd: options.cwd ?? process.cwd(),
      env: { ...process.env, ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

/** Run `main` in this process and capture what it prints. */
async function runMain(args: string[]) {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  const code = await main(args, {});
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

describe('help and version', () => {
  it('answers `adk <command> --help` for every command with its options', async () => {
    for (const command of COMMANDS) {
      const { code, stdout, stderr } = await runMain([command.name, '--help']);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toContain(`Usage: adk ${command.name}`);
      for (const option of Object.keys(command.options)) expect(stdout).toContain(`--${option}`);
    }
    const run = await runMain(['run', '-h']);
    expect(run.stdout).toContain('--artifact_service_uri URI');
    expect(run.stdout).toContain('--memory_service_uri URI');
    expect((await runMain(['help', 'web'])).stdout).toContain('Usage: adk web [agents_dir]');
  });

  it('lists every command in `adk --help` and prints the version with `adk --version`', async () => {
    const help = await runMain(['--help']);
    for (const command of COMMANDS) expect(help.stdout).toContain(`adk ${command.name} `);
    const version = await runMain(['--version']);
    expect(version).toEqual({ code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
  });

  it('names the command in the usage error of an unknown option', async () => {
    const { code, stderr } = await runMain(['run', 'agent.ts', '--nope']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/Unknown option '--nope'.*Run "adk run --help"/);
  });
});

describe('the agents folder', () => {
  it('skips a file that exports no agent and one that fails to import, naming each', async () => {
    const warnings: string[] = [];
    const { apps, skipped } = await loadApps(mixedDir, (message) => warnings.push(message));
    expect([...apps.keys()]).toEqual(['notes']);
    expect(skipped.map((entry) => entry.name)).toEqual(['broken', 'helpers']);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain(join(mixedDir, 'broken.ts'));
    expect(warnings[0]).toContain('broken on purpose');
    expect(warnings[1]).toContain(join(mixedDir, 'helpers.ts'));
    expect(warnings[1]).toContain('exports no agent');
  });
});

describe('services of adk api_server / web / run', () => {
  let server: ServeHandle | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function saveNoteThroughApi(url: string) {
    await fetch(`${url}/apps/notes/users/u/sessions/s1`, { method: 'POST' });
    const response = await fetch(`${url}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        app_name: 'notes',
        user_id: 'u',
        session_id: 's1',
        new_message: { role: 'user', parts: [{ text: 'buy milk' }] },
      }),
    });
    const events = (await response.json()) as { content?: { parts: { text?: string }[] } }[];
    return events.at(-1)?.content?.parts[0]?.text;
  }

  it('saves artifacts as files next to the SQLite sessions by default, and sends dates in seconds', async () => {
    server = await serve({
      agentsDir: mixedDir,
      port: 0,
      sessionServiceUri: `sqlite:${join(dir, 'sessions.db')}`,
      warn: () => undefined,
    });
    expect(await saveNoteThroughApi(server.url)).toBe('Saved version 0.');
    const listed = await fetch(`${server.url}/apps/notes/users/u/sessions/s1/artifacts`);
    expect(await listed.json()).toEqual(['note.txt']);
    expect(server.artifacts).toBe(join(dir, '.adk', 'artifacts'));
    expect(readdirSync(join(dir, '.adk', 'artifacts'))).toEqual(['notes']);
    // The official ADK web UI multiplies timestamps by 1000: seconds render as today's date.
    const session = (await (
      await fetch(`${server.url}/apps/notes/users/u/sessions/s1`)
    ).json()) as { lastUpdateTime: number };
    expect(Math.abs(session.lastUpdateTime - Date.now() / 1000)).toBeLessThan(120);
  });

  it('takes --artifact_service_uri memory://, file://dir and sqlite:file', async () => {
    for (const [uri, where] of [
      ['memory://', undefined],
      [`file://${join(dir, 'files')}`, join(dir, 'files', 'notes')],
      [`sqlite:${join(dir, 'artifacts.db')}`, join(dir, 'artifacts.db')],
    ] as const) {
      server = await serve({
        agentsDir: mixedDir,
        port: 0,
        artifactServiceUri: uri,
        warn: () => undefined,
      });
      expect(await saveNoteThroughApi(server.url)).toBe('Saved version 0.');
      const loaded = await fetch(`${server.url}/apps/notes/users/u/sessions/s1/artifacts/note.txt`);
      expect(await loaded.json()).toMatchObject({ text: 'buy milk' });
      if (where) expect(existsSync(where)).toBe(true);
      await server.close();
      server = undefined;
    }
    await expect(openArtifactStore('s3://bucket', dir)).rejects.toThrow(
      /Unsupported --artifact_service_uri "s3:\/\/bucket"/,
    );
  });

  it('opens a SQL memory service with --memory_service_uri sqlite:', async () => {
    const memory = await openMemoryStore(`sqlite:${join(dir, 'memory.db')}`);
    try {
      expect(memory.service.constructor.name).toBe('SqlMemoryService');
      expect(existsSync(join(dir, 'memory.db'))).toBe(true);
    } finally {
      await memory.close();
    }
    await expect(openMemoryStore('redis://x')).rejects.toThrow(/Unsupported --memory_service_uri/);
  });

  it('gives `adk run` an artifact service too', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString()));
    input.end('remember the keys\nexit\n');
    await chat({
      agentFile: join(mixedDir, 'notes', 'agent.ts'),
      input,
      output,
      sessionServiceUri: `sqlite:${join(dir, 'chat.db')}`,
    });
    expect(text).not.toContain('SERVICE_NOT_CONFIGURED');
    expect(text).toContain('notes > Saved version 0.');
    expect(existsSync(join(dir, '.adk', 'artifacts', 'agent'))).toBe(true);
  });
});

describe('a busy port', () => {
  let blocker: Server | undefined;
  afterEach(
    () => new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve())),
  );

  it('prints one line naming the port and how to change it, and exits with 1', async () => {
    blocker = createServer();
    const port = await new Promise<number>((resolve) =>
      blocker!.listen(0, '127.0.0.1', () => resolve((blocker!.address() as { port: number }).port)),
    );
    const result = await runBin(['api_server', mixedDir, '--port', String(port)]);
    expect(result.code).toBe(1);
    const lines = result.stderr
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('warning:'));
    expect(lines).toEqual([
      `error: Port ${port} on 127.0.0.1 is already in use: choose another with --port <n> (or the PORT variable), or stop the process using it.`,
    ]);
    const fromEnv = await runBin(['web', mixedDir], { env: { PORT: String(port) } });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
  });
});

describe('the adk launcher', () => {
  // `adk` linked globally (npm link) runs from any folder, outside this repository too.
  it('runs from a folder outside the repository', async () => {
    const result = await runBin(['--version'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe(packageJson.version);
    expect(result.code).toBe(0);
  });
});

describe('adk create', () => {
  it('refuses a bad name and a non-empty folder', async () => {
    expect(() => createProject({ name: '1abc', dir })).toThrow(/Invalid project name/);
    mkdirSync(join(dir, 'taken'));
    createProject({ name: 'taken', dir });
    expect(() => createProject({ name: 'taken', dir })).toThrow(/exists and is not empty/);
  });

  it('installs the ADK packages from the tarballs of --packages, transitive ones included', async () => {
    const packed = join(dir, 'packed');
    mkdirSync(packed);
    const names = ['core', 'models-gemini', 'cli', 'server', 'session-sql'];
    for (const name of names) writeFileSync(join(packed, `adk-${name}-0.1.0.tgz`), '');
    writeFileSync(join(packed, 'notes.txt'), '');
    const created = await runMain(['create', 'local_agent', '--dir', dir, '--packages', packed]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const manifest = JSON.parse(
      readFileSync(join(dir, 'local_agent', 'package.json'), 'utf8'),
    ) as Record<string, Record<string, unknown>>;
    const tarball = (name: string) => `file:${join(packed, `adk-${name}-0.1.0.tgz`)}`;
    expect(manifest.dependencies).toMatchObject({
      '@adk/core': tarball('core'),
      '@adk/models-gemini': tarball('models-gemini'),
    });
    expect(manifest.devDependencies).toMatchObject({ '@adk/cli': tarball('cli') });
    const overrides = Object.fromEntries(names.map((name) => [`@adk/${name}`, tarball(name)]));
    expect(manifest.overrides).toEqual(overrides);
    expect(manifest.pnpm).toMatchObject({ overrides });
  });

  it('refuses a --packages folder that is missing or lacks a tarball the project needs', async () => {
    const missing = await runMain(['create', 'a', '--dir', dir, '--packages', join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('run "pnpm pack:all"');
    const partial = join(dir, 'partial');
    mkdirSync(partial);
    writeFileSync(join(partial, 'adk-core-0.1.0.tgz'), '');
    const lacking = await runMain(['create', 'b', '--dir', dir, '--packages', partial]);
    expect(lacking.code).toBe(2);
    expect(lacking.stderr).toContain('no tarball of @adk/models-gemini, @adk/cli');
    expect(existsSync(join(dir, 'b'))).toBe(false);
  });

  // The scaffold goes inside this package so that its imports resolve to the workspace packages,
  // as they would from npm in a user's project; CI runs its test here.
  it('scaffolds a project that `adk run` loads and whose own test passes', async () => {
    const parent = join(packageDir, '.scaffold-test');
    rmSync(join(parent, 'time_agent'), { recursive: true, force: true });
    const created = await runBin(['create', 'time_agent', '--dir', parent]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const project = join(parent, 'time_agent');
    expect(readdirSync(project).sort()).toEqual([
      '.env.example',
      '.gitignore',
      'README.md',
      'agent.test.ts',
      'agent.ts',
      'evals',
      'package.json',
      'tsconfig.json',
    ]);
    expect(readdirSync(join(project, 'evals')).sort()).toEqual([
      'test_config.json',
      'time.evalset.json',
    ]);
    try {
      const run = await runBin(['run', 'agent.ts'], { cwd: project, stdin: 'exit\n' });
      expect(run.stderr).toBe('');
      expect(run.stdout).toContain('Chatting with time_agent');
      expect(run.code).toBe(0);

      const test = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawnTracked(
          process.execPath,
          [
            join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs'),
            'run',
            '--root',
            project,
            '--config',
            join(packageDir, 'test', 'scaffold.vitest.config.ts'),
          ],
          { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('close', (code) => resolve({ code, out }));
      });
      expect(test.out).toMatch(/1 passed/);
      expect(test.code).toBe(0);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
