import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { AgentLoadError } from '../src';
import { agentAppOf, findApps } from '../src/load-agents';

let agents: string;
beforeEach(() => {
  agents = mkdtempSync(join(tmpdir(), 'adk-cli-app-'));
  mkdirSync(join(agents, 'weather-app'));
  writeFileSync(join(agents, 'weather-app', 'agent.ts'), 'export {};\n');
  writeFileSync(join(agents, 'my-bot.ts'), 'export {};\n');
});
afterEach(() => rmSync(agents, { recursive: true, force: true }));

describe('agentAppOf: the app of a path given to adk eval and adk mcp', () => {
  it('names every app as adk web names it in its agents folder', () => {
    const served = findApps(agents);
    const folder = agentAppOf(join(agents, 'weather-app'));
    const entry = agentAppOf(join(agents, 'weather-app', 'agent.ts'));
    const file = agentAppOf(join(agents, 'my-bot.ts'));
    expect([...served.keys()]).toEqual([file.appName, folder.appName]);
    expect(folder).toEqual({
      file: join(agents, 'weather-app', 'agent.ts'),
      appName: 'weather_app',
      agentsDir: agents,
    });
    expect(entry).toEqual(folder);
    expect(file).toEqual({ file: join(agents, 'my-bot.ts'), appName: 'my_bot', agentsDir: agents });
  });

  it('refuses a missing path and a folder without an entry file', () => {
    mkdirSync(join(agents, 'empty'));
    for (const path of [join(agents, 'nope.ts'), join(agents, 'empty')]) {
      expect(() => agentAppOf(path)).toThrow(
        expect.objectContaining({ reason: 'not-found' }) as Error,
      );
      try {
        agentAppOf(path);
      } catch (error) {
        expect(AgentLoadError.isInstance(error)).toBe(true);
      }
    }
  });
});
