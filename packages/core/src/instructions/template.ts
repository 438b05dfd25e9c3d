import type { Part } from '../content';
import type { ReadonlyState } from '../context';
import { TemplateVariableError } from '../errors/template-variable-error';

/** Where {@link renderTemplate} reads values from. */
export interface TemplateSources {
  /** State to read `{key}`, `{app:key}`, `{user:key}`, `{temp:key}` from. */
  state: ReadonlyState | Readonly<Record<string, unknown>>;
  /**
   * Loads the latest version of an artifact for `{artifact.name}`. Omitted when no artifact
   * service is configured: a required artifact variable then fails with a clear message.
   */
  loadArtifact?: (filename: string) => Promise<Part | undefined>;
}

const PLACEHOLDER = /\{[^{}]*\}/g;
const STATE_KEY = /^(?:(?:app|user|temp):)?[A-Za-z_][A-Za-z0-9_]*$/;
const ARTIFACT_PREFIX = 'artifact.';

/**
 * Substitute `{...}` placeholders in an instruction template.
 *
 * - `{name}` reads state key `name`; `{app:x}`, `{user:x}`, `{temp:x}` read prefixed keys;
 * - `{artifact.file.txt}` inserts the latest version of an artifact (its text, or its JSON);
 * - a trailing `?` (`{name?}`) makes the variable optional: a missing value renders as `''`;
 * - anything else in braces (spaces, JSON, unknown prefixes, `{}`) is left untouched.
 *
 * Strings are inserted as they are, other values as JSON (`String()` when not serialisable).
 *
 * @throws TemplateVariableError when a required variable has no value.
 *
 * @example
 * ```ts
 * await renderTemplate('Hello {user:name}, {greeting?}', { state: { 'user:name': 'Ada' } });
 * // 'Hello Ada, '
 * ```
 */
export async function renderTemplate(template: string, sources: TemplateSources): Promise<string> {
  if (!template.includes('{')) return template;
  const matches = template.match(PLACEHOLDER);
  if (!matches) return template;
  const values = new Map<string, string>();
  await Promise.all(
    [...new Set(matches)].map(async (placeholder) => {
      const value = await resolvePlaceholder(placeholder, sources);
      if (value !== undefined) values.set(placeholder, value);
    }),
  );
  return template.replace(PLACEHOLDER, (placeholder) => values.get(placeholder) ?? placeholder);
}

async function resolvePlaceholder(
  placeholder: string,
  sources: TemplateSources,
): Promise<string | undefined> {
  let key = placeholder.slice(1, -1).trim();
  const optional = key.endsWith('?');
  if (optional) key = key.slice(0, -1);
  if (key.startsWith(ARTIFACT_PREFIX) && key.length > ARTIFACT_PREFIX.length) {
    const filename = key.slice(ARTIFACT_PREFIX.length);
    if (!sources.loadArtifact) {
      if (optional) return '';
      throw new TemplateVariableError({
        variable: key,
        message: `Instruction template variable "{${key}}" needs an artifact service; pass artifactService to the Runner.`,
      });
    }
    const artifact = await sources.loadArtifact(filename);
    if (artifact === undefined) {
      if (optional) return '';
      throw new TemplateVariableError({
        variable: key,
        message: `Instruction template variable "{${key}}": artifact "${filename}" was not found.`,
      });
    }
    return artifact.text ?? stringify(artifact);
  }
  if (!STATE_KEY.test(key)) return undefined;
  const value = readState(sources.state, key);
  if (value === undefined) {
    if (optional) return '';
    throw new TemplateVariableError({ variable: key });
  }
  return typeof value === 'string' ? value : stringify(value);
}

function readState(state: TemplateSources['state'], key: string): unknown {
  if (
    typeof (state as ReadonlyState).get === 'function' &&
    typeof (state as ReadonlyState).has === 'function'
  ) {
    return (state as ReadonlyState).get(key);
  }
  return (state as Readonly<Record<string, unknown>>)[key];
}

function stringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
