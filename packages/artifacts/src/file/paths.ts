import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { InvalidArtifactNameError } from '@adk/core';

import { ArtifactPathError } from '../errors/artifact-path-error';
import type { ResolvedLocation } from '../internal/request-checks';

/** Entries under the root whose names start with this are temporary (never valid encodings). */
export const TEMP_MARK = '#';
const MAX_COMPONENT_BYTES = 255;

/** Turn `root` (a path or a `file://` URL) into an absolute path. */
export function resolveRoot(root: string | URL): string {
  if (root instanceof URL || root.startsWith('file://')) return path.resolve(fileURLToPath(root));
  return path.resolve(root);
}

/**
 * Encode an id or a file name as one directory name: reversible, free of separators, and never
 * `.`/`..` nor starting with {@link TEMP_MARK} (which `encodeURIComponent` always escapes).
 */
export function encodeComponent(value: string, what: 'filename' | 'scope'): string {
  let encoded = encodeURIComponent(value);
  if (encoded === '.' || encoded === '..') encoded = encoded.replaceAll('.', '%2E');
  if (Buffer.byteLength(encoded) > MAX_COMPONENT_BYTES) {
    if (what === 'filename') {
      throw new InvalidArtifactNameError({
        filename: value,
        reason: 'too long to store as a file name once encoded',
      });
    }
    throw new ArtifactPathError({
      path: value,
      message: `Id "${value.slice(0, 40)}…" is too long to store as a directory name.`,
    });
  }
  return encoded;
}

/** Inverse of {@link encodeComponent}; `undefined` for entries that are not encoded names. */
export function decodeComponent(entry: string): string | undefined {
  if (entry.startsWith(TEMP_MARK)) return undefined;
  try {
    return decodeURIComponent(entry);
  } catch {
    return undefined;
  }
}

/** Directory holding the files of a scope: the session's, or the user's for `user:` names. */
export function scopeDirectory(root: string, location: Omit<ResolvedLocation, 'filename'>): string {
  const base = [
    root,
    encodeComponent(location.appName, 'scope'),
    encodeComponent(location.userId, 'scope'),
  ];
  const parts =
    location.sessionId === undefined
      ? [...base, 'user']
      : [...base, 'sessions', encodeComponent(location.sessionId, 'scope')];
  return confine(root, path.join(...parts));
}

/** Directory holding the versions of one file. */
export function fileDirectory(root: string, location: ResolvedLocation): string {
  return confine(
    root,
    path.join(scopeDirectory(root, location), encodeComponent(location.filename, 'filename')),
  );
}

/** Throw unless `candidate` is strictly inside `root` (lexically). */
export function confine(root: string, candidate: string): string {
  const resolved = path.resolve(candidate);
  const relative = path.relative(root, resolved);
  const escapes = relative === '..' || relative.startsWith(`..${path.sep}`);
  if (relative === '' || escapes || path.isAbsolute(relative)) {
    throw new ArtifactPathError({
      path: resolved,
      message: `Path "${resolved}" is outside the artifact root "${root}".`,
    });
  }
  return resolved;
}

/**
 * Throw unless the deepest existing ancestor of `candidate` really lives under `root` once
 * symbolic links are followed: a link planted under the root cannot redirect reads or writes.
 */
export async function confineReal(root: string, candidate: string): Promise<void> {
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch (error) {
    // No root yet: nothing exists under it, so nothing can lead outside it.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  let current = candidate;
  for (;;) {
    try {
      const real = await realpath(current);
      if (real !== realRoot && !real.startsWith(realRoot + path.sep)) {
        throw new ArtifactPathError({
          path: candidate,
          message: `Path "${candidate}" resolves outside the artifact root "${root}".`,
        });
      }
      return;
    } catch (error) {
      if (ArtifactPathError.isInstance(error)) throw error;
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const parent = path.dirname(current);
      if (parent === current) return;
      current = parent;
    }
  }
}
