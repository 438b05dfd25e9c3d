import type { ArtifactService } from '../artifacts';
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

/** What {@link invocationTemplateSources} needs of an invocation. */
export interface TemplateScope {
  appName: string;
  userId: string;
  sessionId: string;
  artifactService: ArtifactService | undefined;
}

/**
 * The template sources of an invocation: `state`, and `{artifact.name}` loaded from the
 * invocation's artifact service (scoped to its app, user and session) when one is configured.
 */
export function invocationTemplateSources(
  scope: TemplateScope,
  state: TemplateSources['state'],
): TemplateSources {
  const sources: TemplateSources = { state };
  const artifacts = scope.artifactService;
  if (artifacts) {
    sources.loadArtifact = (filename) =>
      artifacts.loadArtifact({
        appName: scope.appName,
        userId: scope.userId,
        sessionId: scope.sessionId,
        filename,
      });
  }
  return sources;
}

/**
 * A placeholder as the Python ADK finds it (`{+[^{}]*}+`): a run of opening braces, text without
 * braces, a run of closing braces. All the braces belong to the placeholder, so `{{name}}` and
 * `{{{name}}}` render like `{name}` (there is no escape), and an invalid key leaves the whole
 * match, braces included, as it was.
 */
const PLACEHOLDER = /\{+[^{}]*\}+/g;
/** A Python identifier (`str.isidentifier`), optionally after `app:`, `user:` or `temp:`. */
const STATE_KEY = /^(?:(?:app|user|temp):)?[\p{XID_Start}_]\p{XID_Continue}*$/u;
const OPENING_BRACES = /^\{+/;
const CLOSING_BRACES = /\}+$/;
const ARTIFACT_PREFIX = 'artifact.';

/**
 * Substitute `{...}` placeholders in an instruction template.
 *
 * - `{name}` reads state key `name`; `{app:x}`, `{user:x}`, `{temp:x}` read prefixed keys;
 * - `{artifact.file.txt}` inserts the latest version of an artifact (its text, or its JSON);
 * - a trailing `?` (`{name?}`) makes the variable optional: a missing value renders as `''`;
 * - anything else in braces (spaces, JSON, unknown prefixes, `{}`) is left untouched.
 *
 * Placeholders are found as the Python ADK finds them (its `inject_session_state` regular
 * expression `{+[^{}]*}+`): the braces around a key may be doubled or tripled and are all
 * consumed, so `{{name}}`, `{{{name}}}` and even `{{name}` render as `{name}` does (there is no
 * escape for a literal brace around a valid key). The key is the text between the braces, trimmed;
 * a name is a Python identifier (Unicode letters allowed, no leading digit). A valid key right
 * before a closing brace takes that brace with it: `{"a": {x}}` renders as `{"a": 1`, as in Python.
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
  const segments = parse(template);
  if (segments.length === 1 && typeof segments[0] === 'string') return template;
  // Artifacts load concurrently, once per file.
  let artifacts: Map<string, Promise<Part | undefined>> | undefined;
  for (const segment of segments) {
    if (typeof segment === 'string' || segment.artifact === undefined || !sources.loadArtifact) {
      continue;
    }
    artifacts ??= new Map();
    if (!artifacts.has(segment.artifact)) {
      artifacts.set(segment.artifact, sources.loadArtifact(segment.artifact));
    }
  }
  let text = '';
  for (const segment of segments) {
    if (typeof segment === 'string') text += segment;
    else if (segment.artifact !== undefined) text += await renderArtifact(segment, artifacts);
    else text += renderState(segment, sources.state);
  }
  return text;
}

/** A placeholder of a parsed template. */
interface Placeholder {
  /** The key without braces and `?`. */
  key: string;
  optional: boolean;
  /** File name of an `{artifact.name}` placeholder. */
  artifact: string | undefined;
}

const parsedTemplates = new Map<string, readonly (string | Placeholder)[]>();
const MAX_PARSED_TEMPLATES = 500;

/** Literal text and placeholders, in order; invalid placeholders stay literal. Cached per template. */
function parse(template: string): readonly (string | Placeholder)[] {
  const cached = parsedTemplates.get(template);
  if (cached) return cached;
  const segments: (string | Placeholder)[] = [];
  let literal = '';
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    literal += template.slice(last, match.index);
    last = match.index + match[0].length;
    const placeholder = toPlaceholder(match[0]);
    if (!placeholder) {
      literal += match[0];
      continue;
    }
    if (literal) segments.push(literal);
    literal = '';
    segments.push(placeholder);
  }
  literal += template.slice(last);
  if (literal) segments.push(literal);
  if (parsedTemplates.size >= MAX_PARSED_TEMPLATES) parsedTemplates.clear();
  parsedTemplates.set(template, segments);
  return segments;
}

function toPlaceholder(raw: string): Placeholder | undefined {
  let key = raw.replace(OPENING_BRACES, '').replace(CLOSING_BRACES, '').trim();
  const optional = key.endsWith('?');
  if (optional) key = key.slice(0, -1);
  if (key.startsWith(ARTIFACT_PREFIX) && key.length > ARTIFACT_PREFIX.length) {
    return { key, optional, artifact: key.slice(ARTIFACT_PREFIX.length) };
  }
  return STATE_KEY.test(key) ? { key, optional, artifact: undefined } : undefined;
}

async function renderArtifact(
  placeholder: Placeholder,
  artifacts: Map<string, Promise<Part | undefined>> | undefined,
): Promise<string> {
  const { key, optional } = placeholder;
  const loading = artifacts?.get(placeholder.artifact!);
  if (!loading) {
    if (optional) return '';
    throw new TemplateVariableError({
      variable: key,
      message: `Instruction template variable "{${key}}" needs an artifact service; pass artifactService to the Runner.`,
    });
  }
  const artifact = await loading;
  if (artifact === undefined) {
    if (optional) return '';
    throw new TemplateVariableError({
      variable: key,
      message: `Instruction template variable "{${key}}": artifact "${placeholder.artifact!}" was not found.`,
    });
  }
  return artifact.text ?? stringify(artifact);
}

function renderState(placeholder: Placeholder, state: TemplateSources['state']): string {
  const value = readState(state, placeholder.key);
  if (value === undefined) {
    if (placeholder.optional) return '';
    throw new TemplateVariableError({ variable: placeholder.key });
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
