import { LineCounter, parseDocument } from 'yaml';

import { SkillFormatError } from '../errors';

/** The metadata of a skill, from the YAML front matter of its `SKILL.md`. */
export interface SkillFrontmatter {
  /** Lowercase letters, digits and single hyphens (or underscores), at most 64 characters. */
  readonly name: string;
  /** What the skill does and when to use it, at most 1,024 characters. */
  readonly description: string;
  readonly license?: string;
  /** Environment requirements, at most 500 characters. */
  readonly compatibility?: string;
  /** Space-separated tools the skill expects to be pre-approved (`allowed-tools`). */
  readonly allowedTools?: string;
  /** Client-specific key-value pairs. */
  readonly metadata: Readonly<Record<string, unknown>>;
}

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const SNAKE = /^[a-z0-9]+(_[a-z0-9]+)*$/;

/** Split `SKILL.md` text into its front matter (YAML text) and its body. */
export function splitFrontmatter(
  text: string,
  file: string | undefined,
): { yaml: string; body: string; bodyLine: number } {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const opening = /^---[ \t]*\r?\n/.exec(source);
  if (!opening) {
    throw new SkillFormatError({
      file,
      line: 1,
      problem: 'SKILL.md must start with YAML front matter between "---" lines.',
    });
  }
  const rest = source.slice(opening[0].length);
  const closing = /^---[ \t]*(\r?\n|$)/m.exec(rest);
  if (!closing) {
    throw new SkillFormatError({
      file,
      line: 1,
      problem: 'the front matter is not closed by a "---" line.',
    });
  }
  const yaml = rest.slice(0, closing.index);
  const body = rest.slice(closing.index + closing[0].length);
  const bodyLine = 2 + yaml.split('\n').length;
  return { yaml, body: body.trim(), bodyLine };
}

/**
 * Parse and validate front matter as Python ADK's loader does: `name` and `description` required,
 * the name in kebab-case or snake_case (not mixed), lengths bounded, `allowed-tools` or
 * `allowed_tools`, other keys kept in `metadata` only when given there.
 */
export function parseFrontmatter(yamlText: string, file: string | undefined): SkillFrontmatter {
  const lineCounter = new LineCounter();
  const document = parseDocument(yamlText, { lineCounter, prettyErrors: false });
  const lineOf = (offset: number | undefined): number | undefined =>
    offset === undefined ? undefined : lineCounter.linePos(offset).line + 1; // +1: the "---" line
  const firstError = document.errors[0];
  if (firstError) {
    throw new SkillFormatError({
      file,
      line: lineOf(firstError.pos[0]),
      problem: `invalid YAML in the front matter: ${firstError.message.split('\n')[0]}`,
      cause: firstError,
    });
  }
  const value: unknown = document.toJS();
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new SkillFormatError({
      file,
      line: 2,
      problem: 'the front matter must be a YAML mapping.',
    });
  }
  const fields = value as Record<string, unknown>;
  const lineOfKey = (key: string): number | undefined => {
    const node = document.get(key, true) as { range?: [number, number, number] } | undefined;
    return lineOf(node?.range?.[0]);
  };
  return validateFrontmatter(fields, file, lineOfKey);
}

/**
 * Validate front matter fields (from YAML or from code) as Python ADK's loader does.
 * @throws SkillFormatError naming the field, and its line when `lineOfKey` knows it.
 */
export function validateFrontmatter(
  fields: Readonly<Record<string, unknown>>,
  file: string | undefined,
  lineOfKey: (key: string) => number | undefined = () => undefined,
): SkillFrontmatter {
  const fail = (key: string, problem: string): never => {
    throw new SkillFormatError({ file, line: lineOfKey(key) ?? (file ? 2 : undefined), problem });
  };

  const name = typeof fields.name === 'string' ? fields.name.normalize('NFKC') : undefined;
  if (name === undefined) fail('name', 'the front matter needs a "name" (a string).');
  const checkedName = name as string;
  if (checkedName.length > 64) fail('name', `"name" must be at most 64 characters.`);
  if (!KEBAB.test(checkedName) && !SNAKE.test(checkedName)) {
    fail(
      'name',
      `"name" must be lowercase kebab-case or snake_case (a-z, 0-9, single "-" or "_", not mixed), got "${checkedName}".`,
    );
  }
  const description = fields.description;
  if (typeof description !== 'string' || description.trim() === '') {
    fail('description', 'the front matter needs a non-empty "description" (a string).');
  }
  if ((description as string).length > 1024) {
    fail('description', '"description" must be at most 1,024 characters.');
  }
  const optionalString = (key: string, max?: number): string | undefined => {
    const field = fields[key];
    if (field === undefined || field === null) return undefined;
    if (typeof field !== 'string') fail(key, `"${key}" must be a string.`);
    if (max !== undefined && (field as string).length > max) {
      fail(key, `"${key}" must be at most ${max} characters.`);
    }
    return field as string;
  };
  const metadata = fields.metadata ?? {};
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    fail('metadata', '"metadata" must be a mapping.');
  }
  const allowedTools = optionalString('allowed-tools') ?? optionalString('allowed_tools');
  const license = optionalString('license');
  const compatibility = optionalString('compatibility', 500);
  return {
    name: checkedName,
    description: description as string,
    ...(license === undefined ? {} : { license }),
    ...(compatibility === undefined ? {} : { compatibility }),
    ...(allowedTools === undefined ? {} : { allowedTools }),
    metadata: metadata as Record<string, unknown>,
  };
}
