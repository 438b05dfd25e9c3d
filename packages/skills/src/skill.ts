import type { SkillFrontmatter } from './loading/frontmatter';

/** One file of a skill, as read for the model. */
export interface SkillResource {
  /** Path relative to the skill's folder, with `/` separators. */
  readonly path: string;
  /** Size in bytes. */
  readonly bytes: number;
  /** The content, when it is UTF-8 text. */
  readonly text?: string;
  /** The content in base64, when it is not text. */
  readonly base64?: string;
}

/** Why a resource could not be read. */
export type SkillResourceProblem =
  'RESOURCE_NOT_FOUND' | 'RESOURCE_OUTSIDE_SKILL' | 'RESOURCE_TOO_LARGE' | 'INVALID_RESOURCE_PATH';

/** The answer of {@link Skill.readResource}: the file, or why not. */
export type SkillResourceResult =
  | { readonly ok: true; readonly resource: SkillResource }
  | { readonly ok: false; readonly code: SkillResourceProblem; readonly message: string };

/**
 * A skill in the Agent Skills format: metadata (always loaded, cheap), instructions (the body of
 * `SKILL.md`, read when the model loads the skill) and resources (read one by one when asked).
 * {@link loadSkill} makes one from a folder, {@link defineSkill} from code.
 */
export interface Skill {
  readonly name: string;
  readonly description: string;
  readonly frontmatter: SkillFrontmatter;
  /** The skill's folder, for skills loaded from disk. */
  readonly directory?: string;
  /** The body of `SKILL.md` (read again from disk at each call for disk skills). */
  instructions(): Promise<string>;
  /**
   * The resources the model may ask for: the files under `references/`, `assets/` and `scripts/`
   * and the files `SKILL.md` links to, with `/` separators, sorted.
   */
  listResources(): Promise<string[]>;
  /** Read one resource, never anything outside the skill's folder. */
  readResource(path: string, options?: { maxBytes?: number }): Promise<SkillResourceResult>;
  /**
   * The absolute file of a script under `scripts/`, for execution; `undefined` when there is no
   * such file (or the skill has no folder).
   */
  scriptFile?(path: string): Promise<string | undefined>;
}

/** Default cap on the size of one resource returned to the model (1 MiB). */
export const DEFAULT_MAX_RESOURCE_BYTES = 1024 * 1024;
