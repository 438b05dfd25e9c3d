import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { LlmAgent, Runner, userContent, type Event } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { loadSkills, SkillToolset, type SkillToolsetOptions } from '../src';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

async function callScript(
  options: Omit<SkillToolsetOptions, 'skills'>,
  ...calls: Record<string, unknown>[]
): Promise<{ responses: Record<string, unknown>[]; events: Event[]; model: FakeModel }> {
  const toolset = new SkillToolset({
    skills: await loadSkills(join(fixtures, 'skills')),
    ...options,
  });
  const model = new FakeModel([
    { functionCalls: calls.map((args) => ({ name: 'execute_skill_script', args })) },
    'done',
  ]);
  const agent = new LlmAgent({ name: 'runner', model, tools: [toolset] });
  const runner = new Runner({ appName: 'skills', agent, autoCreateSession: true });
  const events: Event[] = [];
  for await (const event of runner.run({
    userId: 'u',
    sessionId: 's',
    newMessage: userContent('go'),
  })) {
    events.push(event);
  }
  const responses = events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) =>
      part.functionResponse ? [part.functionResponse.response as Record<string, unknown>] : [],
    ),
  );
  return { responses, events, model };
}

describe('execute_skill_script', () => {
  let work: string;
  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), 'adk-skill-scripts-'));
  });
  afterEach(() => rm(work, { recursive: true, force: true }));

  it('passes arguments as separate argv entries: nothing reaches a shell', async () => {
    const marker = join(work, 'pwned');
    const hostile = [`$(touch ${marker})`, `; touch ${marker}`, 'it\'s "quoted" | cat', '`id`'];
    const { responses, model } = await callScript(
      { scripts: true },
      { skill_name: 'release-notes', script_name: 'count-entries.sh', args: hostile },
    );
    expect(responses[0]).toMatchObject({
      skill_name: 'release-notes',
      status: 'success',
      exit_code: 0,
      stdout: ['count=4', ...hostile.map((arg) => `arg=${arg}`), ''].join('\n'),
    });
    expect(existsSync(marker)).toBe(false);
    expect(model.requests[0]!.systemInstruction).toContain('execute_skill_script');
  });

  it('runs in the skill folder with only PATH, HOME, LANG and TMPDIR of the server', async () => {
    process.env.ADK_TEST_SECRET_KEY = 'do-not-leak';
    try {
      const { responses } = await callScript(
        { scripts: true },
        { skill_name: 'release-notes', script_name: 'scripts/env-report.mjs' },
      );
      const report = JSON.parse(responses[0]!.stdout as string) as { env: string[]; cwd: string };
      expect(report.env).not.toContain('ADK_TEST_SECRET_KEY');
      expect(report.env.every((name) => ['PATH', 'HOME', 'LANG', 'TMPDIR'].includes(name))).toBe(
        true,
      );
      expect(report.cwd).toBe(join(fixtures, 'skills', 'release-notes'));
    } finally {
      delete process.env.ADK_TEST_SECRET_KEY;
    }
  });

  it('kills the script and what it started when the timeout passes', async () => {
    const pidFile = join(work, 'child.pid');
    const { responses } = await callScript(
      { scripts: { timeoutMs: 5_000 } },
      { skill_name: 'release-notes', script_name: 'spawn-and-sleep.sh', args: [pidFile] },
    );
    expect(responses[0]).toMatchObject({ status: 'timeout', exit_code: null });
    const childPid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(childPid).toBeGreaterThan(0);
    // The grandchild (sleep 600) was in the script's process group: it is gone too.
    await expect.poll(() => isAlive(childPid), { timeout: 30_000, interval: 100 }).toBe(false);
  });

  it('reports a failing script with its exit code and cuts long output', async () => {
    const { responses } = await callScript(
      { scripts: { maxOutputBytes: 1_000 } },
      { skill_name: 'release-notes', script_name: 'loud.py' },
    );
    expect(responses[0]).toMatchObject({
      status: 'error',
      exit_code: 3,
      stderr: 'done\n',
      truncated: true,
    });
    expect((responses[0]!.stdout as string).length).toBe(1_000);
  });

  it('runs only files of scripts/ and refuses what it cannot run', async () => {
    const { responses } = await callScript(
      { scripts: true },
      { skill_name: 'release-notes', script_name: '../references/changelog-format.md' },
      { skill_name: 'release-notes', script_name: '../SKILL.md' },
      { skill_name: 'release-notes', script_name: 'missing.sh' },
      { skill_name: 'release-notes', script_name: 'count-entries.sh', args: 'not a list' },
      { skill_name: 'sql-review', script_name: 'count-entries.sh' },
    );
    expect(responses.map((response) => (response.error as { code: string }).code)).toEqual([
      'SCRIPT_NOT_FOUND',
      'SCRIPT_NOT_FOUND',
      'SCRIPT_NOT_FOUND',
      'INVALID_SCRIPT_ARGUMENTS',
      'SCRIPT_NOT_FOUND',
    ]);
  });

  it('asks a human first when confirm is set, and runs nothing until then', async () => {
    const { responses, events } = await callScript(
      { scripts: { confirm: true } },
      { skill_name: 'release-notes', script_name: 'count-entries.sh', args: ['a'] },
    );
    expect(responses[0]).toMatchObject({ error: { code: 'CONFIRMATION_REQUIRED' } });
    expect(responses[0]).not.toHaveProperty('stdout');
    const requested = events.flatMap((event) =>
      (event.content?.parts ?? []).filter(
        (part) => part.functionCall?.name === 'adk_request_confirmation',
      ),
    );
    expect(requested).toHaveLength(1);
    expect(JSON.stringify(requested[0]!.functionCall!.args)).toContain(
      'Run release-notes/scripts/count-entries.sh a',
    );
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
