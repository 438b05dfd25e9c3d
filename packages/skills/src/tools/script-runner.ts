import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { dirname, extname } from 'node:path';

/** How `execute_skill_script` runs scripts. Scripts run only when the toolset enables them. */
export interface ScriptExecutionOptions {
  /** Most milliseconds a script may run before it (and what it started) is killed. Default 60 s. */
  timeoutMs?: number;
  /** Most bytes of stdout and of stderr returned to the model; the rest is cut. Default 64 KiB. */
  maxOutputBytes?: number;
  /**
   * The command that runs a script, by file extension (`.py`: `['python3']`). Defaults: `.py`
   * python3, `.sh` and `.bash` bash, `.js`/`.mjs`/`.cjs` this Node.js. A script whose extension is
   * not listed runs directly when it is executable, and is refused otherwise.
   */
  interpreters?: Readonly<Record<string, readonly string[]>>;
  /**
   * Environment variables of the script. Default: only `PATH`, `HOME`, `LANG` and `TMPDIR` of this
   * process (API keys and other secrets of the server are not passed on).
   */
  env?: Readonly<Record<string, string>>;
}

/** What a script run returns to the model. */
export interface ScriptResult {
  status: 'success' | 'error' | 'timeout';
  exit_code: number | null;
  stdout: string;
  stderr: string;
  /** Present when output was cut at `maxOutputBytes`. */
  truncated?: true;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_OUTPUT = 64 * 1024;

function defaultInterpreters(): Record<string, readonly string[]> {
  return {
    '.py': ['python3'],
    '.sh': ['bash'],
    '.bash': ['bash'],
    '.js': [process.execPath],
    '.mjs': [process.execPath],
    '.cjs': [process.execPath],
  };
}

function defaultEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'LANG', 'TMPDIR']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/** The command line of a script, or `undefined` when it cannot be run. */
export async function commandFor(
  file: string,
  options: ScriptExecutionOptions,
): Promise<readonly string[] | undefined> {
  const interpreters = { ...defaultInterpreters(), ...options.interpreters };
  const interpreter = interpreters[extname(file).toLowerCase()];
  if (interpreter) return [...interpreter, file];
  try {
    await access(file, constants.X_OK);
    return [file];
  } catch {
    return undefined;
  }
}

/**
 * Run a script with its arguments as separate argv entries (no shell: nothing in `args` is
 * interpreted), in the skill's folder, in its own process group so a timeout or an abort kills
 * what it started too.
 */
export function runScript(
  command: readonly string[],
  args: readonly string[],
  options: ScriptExecutionOptions & { cwd: string; signal: AbortSignal },
): Promise<ScriptResult> {
  const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  return new Promise((resolveResult) => {
    const child = spawn(command[0]!, [...command.slice(1), ...args], {
      cwd: options.cwd ?? dirname(command.at(-1)!),
      env: options.env ? { ...options.env } : defaultEnv(),
      shell: false,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = new BoundedText(maxOutput);
    const err = new BoundedText(maxOutput);
    child.stdout.on('data', (chunk: Buffer) => out.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.add(chunk));
    let timedOut = false;
    const killGroup = (): void => {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const onAbort = (): void => killGroup();
    options.signal.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    const finish = (exitCode: number | null, spawnError?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      const truncated = out.truncated || err.truncated;
      resolveResult({
        status: timedOut ? 'timeout' : exitCode === 0 ? 'success' : 'error',
        exit_code: exitCode,
        stdout: out.text(),
        stderr: spawnError ? `${err.text()}${spawnError.message}` : err.text(),
        ...(truncated ? { truncated: true as const } : {}),
      });
    };
    child.once('error', (error) => finish(null, error));
    child.once('close', (code) => finish(code));
  });
}

class BoundedText {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly max: number) {}

  add(chunk: Buffer): void {
    const room = this.max - this.size;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept !== chunk) this.truncated = true;
    this.chunks.push(kept);
    this.size += kept.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
