import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { LlmAgent, Runner, userContent, type Event } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { describe, expect, it } from 'vitest';

import { defineSkill, loadSkills, SkillToolset } from '../src';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

async function runTurn(toolset: SkillToolset, model: FakeModel): Promise<Event[]> {
  const agent = new LlmAgent({ name: 'writer', model, instruction: 'Help.', tools: [toolset] });
  const runner = new Runner({ appName: 'skills', agent, autoCreateSession: true });
  const events: Event[] = [];
  for await (const event of runner.run({
    userId: 'u',
    sessionId: 's',
    newMessage: userContent('Write the release notes.'),
  })) {
    events.push(event);
  }
  return events;
}

function responses(events: Event[]): Record<string, unknown>[] {
  return events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) =>
      part.functionResponse ? [part.functionResponse.response as Record<string, unknown>] : [],
    ),
  );
}

describe('SkillToolset in a run', () => {
  it('shows names and descriptions first, then loads instructions and files when asked', async () => {
    const toolset = new SkillToolset({ skills: await loadSkills(join(fixtures, 'skills')) });
    const model = new FakeModel([
      { functionCalls: [{ name: 'load_skill', args: { name: 'release-notes' } }] },
      {
        functionCalls: [
          {
            name: 'load_skill_resource',
            args: { skill_name: 'release-notes', path: 'examples/good-release.md' },
          },
          {
            name: 'load_skill_resource',
            args: { skill_name: 'release-notes', path: '../sql-review/SKILL.md' },
          },
          { name: 'load_skill', args: { name: 'nope' } },
        ],
      },
      'Here are the notes.',
    ]);
    const events = await runTurn(toolset, model);

    const first = model.requests[0]!;
    expect(first.systemInstruction).toContain('<name>release-notes</name>');
    expect(first.systemInstruction).toContain('Reviews SQL migrations');
    // Progressive disclosure: the body of SKILL.md is not in the request until loaded.
    expect(first.systemInstruction).not.toContain('Never invent changes');
    // Scripts are off by default: the tool is not offered, nor mentioned.
    const declared = first.config.tools?.flatMap((tool) => tool.functionDeclarations ?? []) ?? [];
    expect(declared.map((declaration) => declaration.name)).toEqual([
      'list_skills',
      'load_skill',
      'load_skill_resource',
    ]);
    expect(first.systemInstruction).not.toContain('execute_skill_script');

    const [loaded, example, outside, unknown] = responses(events);
    expect(loaded).toMatchObject({
      skill_name: 'release-notes',
      frontmatter: { name: 'release-notes', license: 'Apache-2.0' },
    });
    expect(loaded!.instructions).toMatch(/Never invent changes/);
    expect(loaded!.resources).toContain('reference/style.md');
    expect(example).toMatchObject({ path: 'examples/good-release.md' });
    expect(example!.text).toMatch(/each event once/);
    expect(outside).toEqual({
      error: { code: 'INVALID_RESOURCE_PATH', message: expect.stringContaining('../sql-review') },
    });
    expect(unknown).toEqual({
      error: {
        code: 'SKILL_NOT_FOUND',
        message: 'No skill named "nope". Skills: release-notes, sql-review.',
      },
    });
  });

  it('serves code skills and lists them with list_skills', async () => {
    const skill = defineSkill({
      name: 'tone',
      description: 'Keeps answers short & plain.',
      instructions: 'Answer in one sentence.',
      resources: { 'references/words.md': 'Use "use", not "utilise".' },
    });
    const model = new FakeModel([
      {
        functionCalls: [
          { name: 'list_skills', args: {} },
          {
            name: 'load_skill_resource',
            args: { skill_name: 'tone', path: 'references/words.md' },
          },
        ],
      },
      'ok',
    ]);
    const [listed, words] = responses(await runTurn(new SkillToolset({ skills: [skill] }), model));
    expect(listed).toEqual({
      result:
        '<available_skills>\n<skill>\n<name>tone</name>\n<description>Keeps answers short &amp; plain.</description>\n</skill>\n</available_skills>',
    });
    expect(words).toMatchObject({ path: 'references/words.md', text: 'Use "use", not "utilise".' });
  });
});
