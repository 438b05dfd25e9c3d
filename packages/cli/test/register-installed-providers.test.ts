import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { registerInstalledProviders } from '../src/register-installed-providers';

const root = mkdtempSync(join(tmpdir(), 'adk-cli-providers-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A stand-in provider package that counts its registrations on `globalThis`. */
function installFakeProvider(project: string, packageName: string, register: string): void {
  const dir = join(project, 'node_modules', ...packageName.split('/'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: packageName, type: 'module', exports: { '.': './index.js' } }),
  );
  writeFileSync(
    join(dir, 'index.js'),
    `export function ${register}() { globalThis.__adkRegistrations = [...(globalThis.__adkRegistrations ?? []), '${packageName}']; }\n`,
  );
}

const registrations = () =>
  (globalThis as { __adkRegistrations?: string[] }).__adkRegistrations ?? [];

describe('registerInstalledProviders', () => {
  it('registers the provider packages installed next to the agent file, once each', async () => {
    const project = join(root, 'project');
    installFakeProvider(project, '@adk/models-gemini', 'registerGemini');
    installFakeProvider(project, '@adk/models-openai', 'registerOpenAI');
    const agentDir = join(project, 'agents', 'weather');
    mkdirSync(agentDir, { recursive: true });

    expect(await registerInstalledProviders(agentDir)).toEqual([
      '@adk/models-gemini',
      '@adk/models-openai',
    ]);
    expect(registrations()).toEqual(['@adk/models-gemini', '@adk/models-openai']);

    // a second agent of the same project: the providers are not registered again, so a custom
    // registration made by the first agent file is not replaced
    expect(await registerInstalledProviders(join(project, 'agents'))).toEqual([]);
    expect(registrations()).toHaveLength(2);
  });

  it('skips what is not installed', async () => {
    const empty = join(root, 'empty');
    mkdirSync(empty, { recursive: true });
    // resolution walks up from the folder: none of the three packages is above the temp dir
    expect(await registerInstalledProviders(empty)).toEqual([]);
  });
});
