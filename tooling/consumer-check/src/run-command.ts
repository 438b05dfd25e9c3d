import { spawn } from 'node:child_process';

/** A step of the check failed: the message says what, `output` holds the command's last lines. */
export class CheckFailure extends Error {
  constructor(
    message: string,
    readonly output = '',
  ) {
    super(message);
    this.name = 'CheckFailure';
  }
}

/** What {@link runCommand} returns. */
export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Options of {@link runCommand}. */
export interface RunCommandOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  input?: string;
  /** Kill the command after this long (default 10 minutes). */
  timeoutMs?: number;
  /** Resolve with a non-zero exit code instead of throwing {@link CheckFailure}. */
  allowFailure?: boolean;
}

const tail = (text: string, lines = 60) => text.trimEnd().split('\n').slice(-lines).join('\n');

/** Runs a command without a shell, capturing its output; throws {@link CheckFailure} on failure. */
export function runCommand(
  command: string,
  args: readonly string[],
  options: RunCommandOptions,
): Promise<CommandResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 600_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new CheckFailure(`${command} could not start: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const result = { code, stdout, stderr, ms: performance.now() - started };
      if (code === 0 || options.allowFailure) resolve(result);
      else
        reject(
          new CheckFailure(
            `${command} ${args.join(' ')} exited with ${code ?? 'a signal'} (in ${options.cwd})`,
            tail(`${stdout}\n${stderr}`),
          ),
        );
    });
    child.stdin.on('error', () => undefined); // a command that reads no input may close it early
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Prints a step heading and returns a function printing its duration. The closing line repeats
 * the heading, since steps of lanes run at once interleave.
 */
export function step(title: string): (detail?: string) => void {
  const started = performance.now();
  console.log(`\n--- ${title}`);
  return (detail) =>
    console.log(
      `    ok (${((performance.now() - started) / 1000).toFixed(1)} s) ${title}${detail ? `: ${detail}` : ''}`,
    );
}

/** Throws {@link CheckFailure} unless `condition` holds. */
export function expectThat(condition: boolean, message: string, output = ''): void {
  if (!condition) throw new CheckFailure(message, tail(output));
}
