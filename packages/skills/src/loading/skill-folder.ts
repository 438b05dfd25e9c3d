import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, posix, relative, sep } from 'node:path';

import type { SkillResourceResult } from '../skill';

/** Folders of the Agent Skills specification whose files are always resources. */
export const SPEC_FOLDERS = ['references', 'assets', 'scripts'] as const;

/** Most files listed for one skill; a larger folder is listed in part (the rest stay readable). */
const MAX_LISTED = 500;
const SKIPPED_DIRECTORIES = new Set(['node_modules', '__pycache__']);

/**
 * Normalise a path the model gave: `/` separators, no `.` segments. Refuses absolute paths,
 * `..` that climbs out, NUL, and hidden segments (`.git`, `.env`).
 */
export function normaliseResourcePath(path: string): string | undefined {
  if (path.includes('\0') || path.includes('\\')) return undefined;
  if (isAbsolute(path) || /^[A-Za-z]:/.test(path)) return undefined;
  const normal = posix.normalize(path).replace(/\/+$/, '');
  if (normal === '.' || normal === '' || normal.startsWith('../') || normal === '..')
    return undefined;
  if (normal.split('/').some((segment) => segment.startsWith('.'))) return undefined;
  return normal;
}

/**
 * The real file of `path` inside the skill's folder, following symbolic links but refusing any
 * that lead outside it.
 */
export async function resolveInside(
  root: string,
  path: string,
): Promise<
  { ok: true; file: string; normal: string } | Extract<SkillResourceResult, { ok: false }>
> {
  const normal = normaliseResourcePath(path);
  if (normal === undefined) {
    return {
      ok: false,
      code: 'INVALID_RESOURCE_PATH',
      message: `"${path}" is not a relative path inside the skill (no "..", no absolute or hidden paths).`,
    };
  }
  let real: string;
  try {
    real = await realpath(join(root, ...normal.split('/')));
  } catch {
    return { ok: false, code: 'RESOURCE_NOT_FOUND', message: `No file "${normal}" in the skill.` };
  }
  if (!real.startsWith(root + sep)) {
    return {
      ok: false,
      code: 'RESOURCE_OUTSIDE_SKILL',
      message: `"${normal}" leads outside the skill's folder.`,
    };
  }
  return { ok: true, file: real, normal };
}

/** Read a resolved file for the model: text when it is UTF-8, base64 otherwise; bounded. */
export async function readResourceFile(
  file: string,
  normal: string,
  maxBytes: number,
): Promise<SkillResourceResult> {
  const info = await stat(file);
  if (!info.isFile()) {
    return { ok: false, code: 'RESOURCE_NOT_FOUND', message: `"${normal}" is not a file.` };
  }
  if (info.size > maxBytes) {
    return {
      ok: false,
      code: 'RESOURCE_TOO_LARGE',
      message: `"${normal}" has ${info.size} bytes, more than the ${maxBytes} a resource may have.`,
    };
  }
  const bytes = await readFile(file);
  const text = decodeUtf8(bytes);
  return {
    ok: true,
    resource:
      text === undefined
        ? { path: normal, bytes: bytes.length, base64: bytes.toString('base64') }
        : { path: normal, bytes: bytes.length, text },
  };
}

function decodeUtf8(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Every regular, non-hidden file under `directory` (relative to `root`), bounded. */
export async function listFiles(root: string, directory: string, into: Set<string>): Promise<void> {
  let entries;
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (into.size >= MAX_LISTED) return;
    if (entry.name.startsWith('.') || SKIPPED_DIRECTORIES.has(entry.name)) continue;
    const full = join(directory, entry.name);
    if (entry.isDirectory()) await listFiles(root, full, into);
    else if (entry.isFile()) into.add(relative(root, full).split(sep).join('/'));
    else if (entry.isSymbolicLink()) {
      const inside = await resolveInside(root, relative(root, full).split(sep).join('/'));
      if (inside.ok && (await lstat(inside.file)).isFile()) into.add(inside.normal);
    }
  }
}
