import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { temporaryDirectory } from '@adk/test-databases';
import { afterAll, describe, expect, it } from 'vitest';

import { SqlDriverMissingError, assertDriverSupportsNode } from '../src';
import { satisfiesNodeRange } from '../src/connect/node-range';

const temp = temporaryDirectory('adk-sql-kit-engines-');
afterAll(() => temp.remove());

/** A project folder whose node_modules holds a better-sqlite3 with the given `engines.node`. */
function projectWithDriver(name: string, engines: string | undefined): string {
  const dir = join(temp.dir, name, 'node_modules', 'better-sqlite3');
  mkdirSync(join(dir, 'lib'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'better-sqlite3',
      version: '13.2.0',
      main: 'lib/index.js',
      ...(engines ? { engines: { node: engines } } : {}),
    }),
  );
  // Never loaded by the check: loading the real addon of 13 on Node 20 is the crash it prevents.
  writeFileSync(join(dir, 'lib', 'index.js'), "throw new Error('loaded');\n");
  return pathToFileURL(join(temp.dir, name, 'index.js')).href;
}

describe('satisfiesNodeRange', () => {
  it('reads the engines ranges drivers publish', () => {
    expect(satisfiesNodeRange('>=22', '20.20.2')).toBe(false);
    expect(satisfiesNodeRange('>=22', '22.0.0')).toBe(true);
    expect(satisfiesNodeRange('>=22', '24.11.1')).toBe(true);
    expect(satisfiesNodeRange('20.x || 22.x || 23.x || 24.x', '20.20.2')).toBe(true);
    expect(satisfiesNodeRange('20.x || 22.x || 23.x || 24.x', '21.7.3')).toBe(false);
    expect(satisfiesNodeRange('^20.19.0 || >=22.12.0', '20.18.1')).toBe(false);
    expect(satisfiesNodeRange('^20.19.0 || >=22.12.0', '20.19.0')).toBe(true);
    expect(satisfiesNodeRange('^20.19.0 || >=22.12.0', '22.11.0')).toBe(false);
    expect(satisfiesNodeRange('>= 14.0.0 < 23', '24.0.0')).toBe(false);
    expect(satisfiesNodeRange('>= 14.0.0 < 23', '22.5.1')).toBe(true);
    expect(satisfiesNodeRange('~22.1', '22.1.9')).toBe(true);
    expect(satisfiesNodeRange('~22.1', '22.2.0')).toBe(false);
    expect(satisfiesNodeRange('*', '20.0.0')).toBe(true);
  });

  it('gives a range it cannot read the benefit of the doubt', () => {
    expect(satisfiesNodeRange('lts/iron', '20.20.2')).toBeUndefined();
  });
});

describe('assertDriverSupportsNode', () => {
  it('refuses better-sqlite3 13 on Node 20 before loading it, naming the version that works', () => {
    const from = projectWithDriver('newer', '>=22');
    let error: unknown;
    try {
      assertDriverSupportsNode('better-sqlite3', from, '20.20.2');
    } catch (thrown) {
      error = thrown;
    }
    expect(SqlDriverMissingError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'SqlDriverMissingError',
      packageName: 'better-sqlite3',
      reason: 'unsupported-node',
      installed: { version: '13.2.0', engines: '>=22' },
    });
    const message = (error as Error).message;
    expect(message).toContain('needs Node.js >=22, and this is Node.js v20.20.2');
    expect(message).toContain('npm install better-sqlite3@12');
  });

  it('accepts the driver on a Node.js its engines include, and one without engines', () => {
    expect(() =>
      assertDriverSupportsNode('better-sqlite3', projectWithDriver('ok', '>=22'), '24.11.1'),
    ).not.toThrow();
    expect(() =>
      assertDriverSupportsNode('better-sqlite3', projectWithDriver('none', undefined), '20.0.0'),
    ).not.toThrow();
  });

  it('leaves a driver that is not installed to the import, which reports it', () => {
    const from = pathToFileURL(join(temp.dir, 'empty', 'index.js')).href;
    expect(() => assertDriverSupportsNode('better-sqlite3', from, '20.20.2')).not.toThrow();
  });

  it('accepts the better-sqlite3 installed here on the running Node.js', () => {
    expect(() => assertDriverSupportsNode('better-sqlite3')).not.toThrow();
  });
});
