import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';

import { InvalidArgumentError } from '@adk/core';

import { SkillFormatError } from '../errors';
import { DEFAULT_MAX_RESOURCE_BYTES, type Skill, type SkillResourceResult } from '../skill';
import { parseFrontmatter, splitFrontmatter, type SkillFrontmatter } from './frontmatter';
import { linkedPaths } from './linked-paths';
import { listFiles, readResourceFile, resolveInside, SPEC_FOLDERS } from './skill-folder';

const SKILL_FILES = ['SKILL.md', 'skill.md'];

async function findSkillFile(directory: string): Promise<string | undefined> {
  for (const name of SKILL_FILES) {
    const file = join(directory, name);
    try {
      if ((await stat(file)).isFile()) return file;
    } catch {
      // try the next spelling
    }
  }
  return undefined;
}

async function readSkillFile(
  file: string,
): Promise<{ frontmatter: SkillFrontmatter; body: string }> {
  const text = await readFile(file, 'utf8');
  const { yaml, body } = splitFrontmatter(text, file);
  return { frontmatter: parseFrontmatter(yaml, file), body };
}

/**
 * Load the skill in `directory` (a folder holding `SKILL.md`). Only the front matter is kept in
 * memory; the instructions and resources are read from disk when the model asks for them, so a
 * skill edited while the server runs is served as edited.
 *
 * @throws SkillFormatError when the folder has no `SKILL.md`, its front matter is invalid (the
 *   error names the file and line), or the skill's `name` differs from the folder's name.
 */
export async function loadSkill(directory: string): Promise<Skill> {
  let root: string;
  try {
    root = await realpath(resolve(directory));
  } catch (cause) {
    throw new SkillFormatError({ file: directory, problem: 'no such skill folder.', cause });
  }
  const file = await findSkillFile(root);
  if (file === undefined) {
    throw new SkillFormatError({ file: root, problem: 'the folder has no SKILL.md.' });
  }
  const { frontmatter } = await readSkillFile(file);
  if (frontmatter.name !== basename(root)) {
    throw new SkillFormatError({
      file,
      line: 2,
      problem: `the skill's name "${frontmatter.name}" differs from its folder's name "${basename(root)}".`,
    });
  }
  return new DiskSkill(root, file, frontmatter);
}

/**
 * Load every skill in the sub-folders of `directory` that hold a `SKILL.md` (other folders are
 * ignored), sorted by name.
 * @throws SkillFormatError for the first invalid skill; InvalidArgumentError for two skills of
 *   one name.
 */
export async function loadSkills(directory: string): Promise<Skill[]> {
  const root = resolve(directory);
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (cause) {
    throw new SkillFormatError({ file: root, problem: 'no such skills folder.', cause });
  }
  const skills: Skill[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    if (entry.name.startsWith('.')) continue;
    if ((await findSkillFile(join(root, entry.name))) === undefined) continue;
    skills.push(await loadSkill(join(root, entry.name)));
  }
  const seen = new Set<string>();
  for (const skill of skills) {
    if (seen.has(skill.name)) {
      throw new InvalidArgumentError({
        message: `Two skills named "${skill.name}" in ${root}.`,
        argument: 'directory',
      });
    }
    seen.add(skill.name);
  }
  return skills;
}

class DiskSkill implements Skill {
  readonly name: string;
  readonly description: string;

  constructor(
    readonly directory: string,
    private readonly file: string,
    readonly frontmatter: SkillFrontmatter,
  ) {
    this.name = frontmatter.name;
    this.description = frontmatter.description;
  }

  async instructions(): Promise<string> {
    return (await readSkillFile(this.file)).body;
  }

  async listResources(): Promise<string[]> {
    const files = new Set<string>();
    for (const folder of SPEC_FOLDERS) {
      await listFiles(this.directory, join(this.directory, folder), files);
    }
    for (const path of linkedPaths(await this.instructions())) {
      const inside = await resolveInside(this.directory, path);
      if (!inside.ok) continue;
      if ((await stat(inside.file)).isDirectory())
        await listFiles(this.directory, inside.file, files);
      else files.add(inside.normal);
    }
    return [...files].sort();
  }

  async readResource(
    path: string,
    options: { maxBytes?: number } = {},
  ): Promise<SkillResourceResult> {
    const inside = await resolveInside(this.directory, path);
    if (!inside.ok) return inside;
    return readResourceFile(
      inside.file,
      inside.normal,
      options.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES,
    );
  }

  async scriptFile(path: string): Promise<string | undefined> {
    const withFolder = path.startsWith('scripts/') ? path : `scripts/${path}`;
    const inside = await resolveInside(this.directory, withFolder);
    if (!inside.ok || !inside.normal.startsWith('scripts/')) return undefined;
    return (await stat(inside.file)).isFile() ? inside.file : undefined;
  }
}
