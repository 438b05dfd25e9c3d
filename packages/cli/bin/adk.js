#!/usr/bin/env node
// Launcher of the `adk` command. Runs the built CLI (dist/bin.js) when it exists; in a source
// checkout without a build, runs the TypeScript sources through tsx with the `source` condition.
// tsx is resolved from this file, not from the current folder, so a linked `adk` (npm link) works
// from any folder.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const built = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
if (existsSync(built)) {
  await import(pathToFileURL(built).href);
} else {
  const source = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
  const tsx = import.meta.resolve('tsx');
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', tsx, source, ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}
