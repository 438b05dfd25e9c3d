import { cp, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { InvalidArgumentError } from '@adk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { defineSkill, loadSkill, loadSkills, SkillFormatError, type Skill } from '../src';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

describe('loadSkills', () => {
  it('loads every skill folder, sorted, with the front matter only', async () => {
    const skills = await loadSkills(join(fixtures, 'skills'));
    expect(skills.map((skill) => skill.name)).toEqual(['release-notes', 'sql-review']);
    const [notes, review] = skills as [Skill, Skill];
    expect(notes.description).toMatch(/^Writes release notes/);
    expect(notes.frontmatter).toMatchObject({
      license: 'Apache-2.0',
      metadata: { version: '1.2' },
    });
    expect(review.frontmatter.allowedTools).toBe('Read');
    await expect(notes.instructions()).resolves.toMatch(
      /^# Release notes\n\n1\. Read the house style/,
    );
  });

  it('names the file and line of an invalid skill', async () => {
    const wrongName = loadSkill(join(fixtures, 'invalid', 'wrong-name'));
    await expect(wrongName).rejects.toThrow(SkillFormatError);
    await expect(wrongName).rejects.toThrow(
      /wrong-name[/\\]SKILL\.md:2: .*"another-name" differs from its folder's name "wrong-name"/,
    );

    const badYaml = await loadSkill(join(fixtures, 'invalid', 'bad-yaml')).catch((e: unknown) => e);
    expect(SkillFormatError.isInstance(badYaml)).toBe(true);
    expect((badYaml as SkillFormatError).line).toBe(3);
    expect((badYaml as SkillFormatError).message).toMatch(/invalid YAML/);

    const noDescription = await loadSkill(join(fixtures, 'invalid', 'no-description')).catch(
      (e: unknown) => e,
    );
    expect((noDescription as SkillFormatError).message).toMatch(/needs a non-empty "description"/);
  });

  it('refuses a folder without SKILL.md and two skills of one name', async () => {
    await expect(loadSkill(join(fixtures, 'skills'))).rejects.toThrow(/has no SKILL\.md/);
    await expect(loadSkills(join(fixtures, 'missing'))).rejects.toThrow(SkillFormatError);
    expect(() => defineSkill({ name: 'Bad Name', description: 'x', instructions: '' })).toThrow(
      /kebab-case or snake_case/,
    );
    expect(() =>
      defineSkill({ name: 'mixed-name_style', description: 'x', instructions: '' }),
    ).toThrow(SkillFormatError);
    expect(defineSkill({ name: 'snake_case_ok', description: 'x', instructions: '' }).name).toBe(
      'snake_case_ok',
    );
    const { SkillToolset } = await import('../src');
    const one = defineSkill({ name: 'twice', description: 'x', instructions: '' });
    expect(() => new SkillToolset({ skills: [one, one] })).toThrow(InvalidArgumentError);
  });
});

describe("a disk skill's resources", () => {
  let work: string;
  let skill: Skill;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'adk-skills-'));
    await cp(join(fixtures, 'skills', 'release-notes'), join(work, 'release-notes'), {
      recursive: true,
    });
    await writeFile(join(work, 'secret.txt'), 'outside the skill');
    await symlink(join(work, 'secret.txt'), join(work, 'release-notes', 'references', 'leak.md'));
    await writeFile(join(work, 'release-notes', 'assets-logo.bin'), Buffer.from([0, 1, 2, 255]));
    skill = await loadSkill(join(work, 'release-notes'));
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('lists the spec folders and what SKILL.md links to, not hidden or unlinked files', async () => {
    const listed = await skill.listResources();
    expect(listed).toEqual([
      'examples/good-release.md',
      'reference/style.md',
      'references/changelog-format.md',
      'scripts/count-entries.sh',
      'scripts/env-report.mjs',
      'scripts/loud.py',
      'scripts/spawn-and-sleep.sh',
    ]);
  });

  it('reads linked files outside the spec folders, text or base64', async () => {
    const style = await skill.readResource('reference/style.md');
    expect(style).toMatchObject({ ok: true, resource: { path: 'reference/style.md' } });
    expect(style.ok && style.resource.text).toMatch(/Plain words/);
    const viaDot = await skill.readResource('./examples/../examples/good-release.md');
    expect(viaDot.ok && viaDot.resource.path).toBe('examples/good-release.md');
    const binary = await skill.readResource('assets-logo.bin');
    expect(binary.ok && binary.resource).toEqual({
      path: 'assets-logo.bin',
      bytes: 4,
      base64: Buffer.from([0, 1, 2, 255]).toString('base64'),
    });
  });

  it('never serves anything outside the skill folder, hidden files or oversized files', async () => {
    const code = async (path: string, maxBytes?: number): Promise<string> => {
      const result = await skill.readResource(path, maxBytes === undefined ? {} : { maxBytes });
      return result.ok ? 'ok' : result.code;
    };
    expect(await code('../secret.txt')).toBe('INVALID_RESOURCE_PATH');
    expect(await code('references/../../secret.txt')).toBe('INVALID_RESOURCE_PATH');
    expect(await code(join(work, 'secret.txt'))).toBe('INVALID_RESOURCE_PATH');
    expect(await code('references/leak.md')).toBe('RESOURCE_OUTSIDE_SKILL');
    expect(await code('.env')).toBe('INVALID_RESOURCE_PATH');
    expect(await code('references/none.md')).toBe('RESOURCE_NOT_FOUND');
    expect(await code('references')).toBe('RESOURCE_NOT_FOUND');
    expect(await code('references/changelog-format.md', 10)).toBe('RESOURCE_TOO_LARGE');
  });
});
