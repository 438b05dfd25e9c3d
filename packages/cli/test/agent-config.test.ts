import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Runner, userContent, getText, type Event } from '@adk/core';
import { describe, expect, it } from 'vitest';

import { loadApps } from '../src';

const yamlAgents = fileURLToPath(new URL('./fixtures/yaml-agents/', import.meta.url));
const bin = fileURLToPath(new URL('../bin/adk.js', import.meta.url));

describe('agents as YAML config (root_agent.yaml)', () => {
  it('serves a folder with root_agent.yaml as an app, and reports a bad one with its line', async () => {
    const warnings: string[] = [];
    const { apps, skipped } = await loadApps(yamlAgents, (message) => warnings.push(message));
    expect([...apps.keys()]).toEqual(['greeter']);
    expect(skipped.map((app) => app.name)).toEqual(['broken_config']);
    expect(warnings[0]).toMatch(
      /broken_config[/\\]root_agent\.yaml:3: toolz: unknown field "toolz"/,
    );

    const runner = new Runner({
      appName: 'greeter',
      agent: apps.get('greeter')!,
      autoCreateSession: true,
    });
    const events: Event[] = [];
    for await (const event of runner.run({
      userId: 'u',
      sessionId: 's',
      newMessage: userContent('Hi'),
    })) {
      events.push(event);
    }
    expect(getText(events.at(-1)?.content)).toBe('Hello! It is 09:30.');
  });

  it('adk run takes the agent folder of a root_agent.yaml', async () => {
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        const child = spawn(process.execPath, [bin, 'run', join(yamlAgents, 'greeter')], {
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end('Hi\nexit\n');
      },
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Hello! It is 09:30.');
    expect(result.code).toBe(0);
  });
});
