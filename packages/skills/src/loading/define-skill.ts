import { DEFAULT_MAX_RESOURCE_BYTES, type Skill, type SkillResourceResult } from '../skill';
import { validateFrontmatter } from './frontmatter';
import { normaliseResourcePath } from './skill-folder';

/** A skill written in code: the fields of `SKILL.md`'s front matter, its body and its files. */
export interface SkillDefinition {
  /** Lowercase kebab-case or snake_case, at most 64 characters. */
  name: string;
  /** What the skill does and when to use it (what the model sees before loading it). */
  description: string;
  /** The skill's instructions (the body of a `SKILL.md`). */
  instructions: string;
  /** Files the model can read, by relative path (`references/style.md`). */
  resources?: Readonly<Record<string, string>>;
  license?: string;
  compatibility?: string;
  allowedTools?: string;
  metadata?: Readonly<Record<string, unknown>>;
}

/**
 * A skill from code, validated as a `SKILL.md` would be. Code skills have no scripts to execute.
 * @throws SkillFormatError for an invalid name or description.
 */
export function defineSkill(definition: SkillDefinition): Skill {
  const frontmatter = validateFrontmatter(
    {
      name: definition.name,
      description: definition.description,
      license: definition.license,
      compatibility: definition.compatibility,
      'allowed-tools': definition.allowedTools,
      metadata: definition.metadata,
    },
    undefined,
  );
  const resources = new Map<string, string>();
  for (const [path, text] of Object.entries(definition.resources ?? {})) {
    const normal = normaliseResourcePath(path);
    if (normal !== undefined) resources.set(normal, text);
  }
  return {
    name: frontmatter.name,
    description: frontmatter.description,
    frontmatter,
    instructions: () => Promise.resolve(definition.instructions),
    listResources: () => Promise.resolve([...resources.keys()].sort()),
    readResource: (path, options = {}) => Promise.resolve(read(resources, path, options.maxBytes)),
  };
}

function read(
  resources: ReadonlyMap<string, string>,
  path: string,
  maxBytes = DEFAULT_MAX_RESOURCE_BYTES,
): SkillResourceResult {
  const normal = normaliseResourcePath(path);
  if (normal === undefined) {
    return {
      ok: false,
      code: 'INVALID_RESOURCE_PATH',
      message: `"${path}" is not a relative path inside the skill.`,
    };
  }
  const text = resources.get(normal);
  if (text === undefined) {
    return { ok: false, code: 'RESOURCE_NOT_FOUND', message: `No file "${normal}" in the skill.` };
  }
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) {
    return {
      ok: false,
      code: 'RESOURCE_TOO_LARGE',
      message: `"${normal}" has ${bytes} bytes, more than the ${maxBytes} a resource may have.`,
    };
  }
  return { ok: true, resource: { path: normal, bytes, text } };
}
