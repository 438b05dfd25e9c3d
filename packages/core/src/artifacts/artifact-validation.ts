import type { Part } from '../content';
import { InvalidArgumentError } from '../errors/invalid-argument-error';
import { InvalidArtifactNameError } from '../errors/invalid-artifact-name-error';

/** Prefix of artifact names shared by every session of a user. */
export const USER_ARTIFACT_PREFIX = 'user:';

/** Longest accepted artifact name, in characters. */
export const MAX_ARTIFACT_NAME_LENGTH = 255;

// C0 controls (NUL included), DEL and C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** True when `filename` is user-scoped (`user:` prefix), i.e. shared across the user's sessions. */
export function isUserScopedArtifact(filename: string): boolean {
  return filename.startsWith(USER_ARTIFACT_PREFIX);
}

/**
 * Check an artifact name; throws `InvalidArtifactNameError` when it is refused.
 *
 * Refused: empty names (or a bare `user:`), names longer than {@link MAX_ARTIFACT_NAME_LENGTH},
 * names containing `/` or `\`, `..`, a NUL or any other control character, and the name `.`.
 * Every artifact service applies these rules before touching storage.
 *
 * @example
 * ```ts
 * validateArtifactName('report.pdf'); // ok
 * validateArtifactName('../etc/passwd'); // throws InvalidArtifactNameError
 * ```
 */
export function validateArtifactName(filename: string): void {
  const refuse = (reason: string): never => {
    throw new InvalidArtifactNameError({ filename: String(filename), reason });
  };
  if (typeof filename !== 'string') refuse('not a string');
  const bare = isUserScopedArtifact(filename)
    ? filename.slice(USER_ARTIFACT_PREFIX.length)
    : filename;
  if (bare.length === 0) refuse('empty');
  if (filename.length > MAX_ARTIFACT_NAME_LENGTH)
    refuse(`longer than ${MAX_ARTIFACT_NAME_LENGTH} characters`);
  if (filename.includes('/') || filename.includes('\\')) refuse('contains a path separator');
  if (filename.includes('..')) refuse("contains '..'");
  if (bare === '.') refuse("is '.'");
  if (CONTROL_CHARACTERS.test(filename)) refuse('contains a NUL or control character');
}

/**
 * Check that a part can be stored as an artifact: exactly one of `text`, `inlineData` (with a
 * base64 `data` string and a `mimeType`) or `fileData`. Throws `InvalidArgumentError` otherwise.
 */
export function validateArtifactPart(part: Part): void {
  const fail = (message: string): never => {
    throw new InvalidArgumentError({
      message: `Invalid artifact: ${message}.`,
      argument: 'artifact',
    });
  };
  if (part == null || typeof part !== 'object') fail('expected a Part object');
  const kinds = [
    part.text !== undefined,
    part.inlineData !== undefined,
    part.fileData !== undefined,
  ];
  const count = kinds.filter(Boolean).length;
  if (count !== 1) fail('a part must hold exactly one of text, inlineData or fileData');
  if (part.text !== undefined && typeof part.text !== 'string') fail('text must be a string');
  if (part.inlineData !== undefined) {
    if (typeof part.inlineData.data !== 'string') fail('inlineData.data must be a base64 string');
    if (typeof part.inlineData.mimeType !== 'string' || part.inlineData.mimeType === '') {
      fail('inlineData.mimeType is required');
    }
  }
  if (part.fileData !== undefined && typeof part.fileData.fileUri !== 'string') {
    fail('fileData.fileUri must be a string');
  }
}

/** Check a requested version: a non-negative integer. Throws `InvalidArgumentError` otherwise. */
export function validateArtifactVersion(version: number | undefined): void {
  if (version === undefined) return;
  if (!Number.isInteger(version) || version < 0) {
    throw new InvalidArgumentError({
      message: `Invalid artifact version ${String(version)}: expected a non-negative integer.`,
      argument: 'version',
    });
  }
}

/** The media type recorded for a part: `text/plain` for text, the blob's or file's type otherwise. */
export function artifactMimeType(part: Part): string | undefined {
  if (part.text !== undefined) return 'text/plain';
  return part.inlineData?.mimeType ?? part.fileData?.mimeType;
}
