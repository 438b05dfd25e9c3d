import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { platform } from 'node:os';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { bundledScript } from '../src';

const entry = fileURLToPath(new URL('./fixtures/bundle-entry.ts', import.meta.url));

describe('bundledScript', () => {
  it('bundles the sources and runs under plain node, packages left as imports', async () => {
    const file = await bundledScript(entry);
    expect(file).toMatch(
      /node_modules\/\.cache\/adk-test-bundles\/bundle-entry-[0-9a-f]{16}\.mjs$/,
    );
    const output = execFileSync(process.execPath, [file, 'a', 'b'], { encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({
      greeting: 'hello, bundle',
      kysely: 'function',
      platform: platform(),
      argv: ['a', 'b'],
    });
    const code = readFileSync(file, 'utf8');
    // The helper is inlined; kysely is imported from its installed file, not copied in.
    expect(code).toContain('hello, ${name}');
    expect(code).toMatch(/from "\/[^"]*\/kysely\/[^"]+"/);
    expect(code).not.toContain('class Kysely');
  });

  it('builds each script once per process', async () => {
    expect(bundledScript(entry)).toBe(bundledScript(entry));
    expect(await bundledScript(entry)).toBe(await bundledScript(entry));
  });
});
