import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { link, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

import type {
  ArtifactFileRequest,
  ArtifactScope,
  ArtifactService,
  ArtifactVersion,
  LoadArtifactRequest,
  Part,
  SaveArtifactRequest,
} from '@adk/core';

import { ArtifactPathError } from '../errors/artifact-path-error';
import { CorruptArtifactError } from '../errors/corrupt-artifact-error';
import { decodePart, encodePart, type StoredPartKind } from '../internal/part-codec';
import {
  checkLoad,
  checkSave,
  checkScope,
  copyMetadata,
  locate,
  type ResolvedLocation,
} from '../internal/request-checks';
import {
  confineReal,
  decodeComponent,
  fileDirectory,
  resolveRoot,
  scopeDirectory,
  TEMP_MARK,
} from './paths';

/** Options of {@link FileArtifactService}. */
export interface FileArtifactServiceOptions {
  /** Root directory (or `file://` URL); created on first write. Nothing is ever stored outside it. */
  root: string | URL;
}

/** The JSON sidecar stored next to each version's bytes; its presence commits the version. */
interface Sidecar {
  filename: string;
  version: number;
  kind: StoredPartKind;
  mimeType?: string;
  displayName?: string;
  fileUri?: string;
  customMetadata?: Record<string, unknown>;
  createTime: number;
}

const SIDECAR = '.json';
const DATA = '.bin';

/**
 * Artifacts stored as files under one root directory.
 *
 * Layout: `<root>/<app>/<user>/sessions/<session>/<name>/<version>.bin` plus a `<version>.json`
 * metadata sidecar (user-scoped `user:` names live under `<root>/<app>/<user>/user/`). Each
 * component is URI-encoded, every path is checked to stay under the root (symbolic links
 * included), and writes are atomic: bytes go to a temporary file that is hard-linked to its
 * version number (which also settles concurrent saves), then the sidecar is renamed into place,
 * committing the version. A crash leaves at most an uncommitted file that readers ignore.
 *
 * @example
 * ```ts
 * const artifacts = new FileArtifactService({ root: './data/artifacts' });
 * await artifacts.saveArtifact({ appName, userId, sessionId, filename: 'a.txt', artifact: { text: 'hi' } });
 * ```
 */
export class FileArtifactService implements ArtifactService {
  readonly #root: string;

  constructor(options: FileArtifactServiceOptions) {
    this.#root = resolveRoot(options.root);
  }

  /** The absolute root directory. */
  get root(): string {
    return this.#root;
  }

  async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    const location = checkSave(request);
    const encoded = encodePart(request.artifact);
    const directory = fileDirectory(this.#root, location);
    await mkdir(this.#root, { recursive: true });
    await confineReal(this.#root, directory);
    const sidecar: Omit<Sidecar, 'version'> = {
      filename: location.filename,
      kind: encoded.kind,
      ...(encoded.mimeType !== undefined ? { mimeType: encoded.mimeType } : {}),
      ...(encoded.displayName !== undefined ? { displayName: encoded.displayName } : {}),
      ...(encoded.fileUri !== undefined ? { fileUri: encoded.fileUri } : {}),
      ...(request.customMetadata !== undefined
        ? { customMetadata: copyMetadata(request.customMetadata) }
        : {}),
      createTime: Date.now(),
    };
    for (let attempt = 0; ; attempt++) {
      const temporaryData = path.join(directory, `${TEMP_MARK}tmp-${randomUUID()}`);
      const temporarySidecar = path.join(directory, `${TEMP_MARK}tmp-${randomUUID()}`);
      try {
        // Inside the retry: a delete that renames the directory away while `mkdir` checks the
        // one it found fails `mkdir` itself with ENOENT.
        await mkdir(directory, { recursive: true });
        await writeDurably(temporaryData, encoded.data);
        const version = await claimVersion(directory, temporaryData);
        await writeDurably(
          temporarySidecar,
          JSON.stringify({ ...sidecar, version } satisfies Sidecar),
        );
        await rename(temporarySidecar, path.join(directory, `${version}${SIDECAR}`));
        await rm(temporaryData, { force: true });
        return version;
      } catch (error) {
        await rm(temporaryData, { force: true });
        await rm(temporarySidecar, { force: true });
        // The directory vanished under us (a concurrent delete): start again in a fresh one.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' && attempt < 5) continue;
        throw error;
      }
    }
  }

  async loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined> {
    const location = checkLoad(request);
    const found = await this.#readVersion(location, request.version);
    if (!found) return undefined;
    const data =
      found.sidecar.kind === 'file'
        ? Buffer.alloc(0)
        : await readOrUndefined(path.join(found.directory, `${found.sidecar.version}${DATA}`));
    if (data === undefined) return undefined;
    return decodePart({
      kind: found.sidecar.kind,
      mimeType: found.sidecar.mimeType,
      displayName: found.sidecar.displayName,
      fileUri: found.sidecar.fileUri,
      data,
    });
  }

  async getArtifactVersion(request: LoadArtifactRequest): Promise<ArtifactVersion | undefined> {
    const found = await this.#readVersion(checkLoad(request), request.version);
    return found ? toVersion(found.sidecar) : undefined;
  }

  async listArtifactKeys(request: ArtifactScope): Promise<string[]> {
    checkScope(request);
    const names: string[] = [];
    for (const sessionId of [request.sessionId, undefined]) {
      const directory = scopeDirectory(this.#root, { ...request, sessionId });
      await confineReal(this.#root, directory);
      for (const entry of await readdirOrEmpty(directory)) {
        const name = decodeComponent(entry);
        if (name === undefined) continue;
        if ((await committedVersions(path.join(directory, entry))).length > 0) names.push(name);
      }
    }
    return names.sort();
  }

  async deleteArtifact(request: ArtifactFileRequest): Promise<void> {
    const directory = fileDirectory(this.#root, locate(request));
    await confineReal(this.#root, directory);
    // Move the whole file away first, so readers never see half of its versions.
    const trash = path.join(path.dirname(directory), `${TEMP_MARK}trash-${randomUUID()}`);
    try {
      await rename(directory, trash);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    await rm(trash, { recursive: true, force: true });
  }

  async listVersions(request: ArtifactFileRequest): Promise<number[]> {
    const directory = fileDirectory(this.#root, locate(request));
    await confineReal(this.#root, directory);
    return committedVersions(directory);
  }

  async listArtifactVersions(request: ArtifactFileRequest): Promise<ArtifactVersion[]> {
    const location = locate(request);
    const directory = fileDirectory(this.#root, location);
    await confineReal(this.#root, directory);
    const versions: ArtifactVersion[] = [];
    for (const version of await committedVersions(directory)) {
      const sidecar = await readSidecar(directory, version);
      if (sidecar) versions.push(toVersion(sidecar));
    }
    return versions;
  }

  async #readVersion(
    location: ResolvedLocation,
    version: number | undefined,
  ): Promise<{ directory: string; sidecar: Sidecar } | undefined> {
    const directory = fileDirectory(this.#root, location);
    await confineReal(this.#root, directory);
    const wanted = version ?? (await committedVersions(directory)).at(-1);
    if (wanted === undefined) return undefined;
    const sidecar = await readSidecar(directory, wanted);
    return sidecar ? { directory, sidecar } : undefined;
  }
}

/** Hard-link the temporary file to the first free version number; EEXIST means taken. */
async function claimVersion(directory: string, temporary: string): Promise<number> {
  let version = await nextVersion(directory);
  for (;;) {
    try {
      await link(temporary, path.join(directory, `${version}${DATA}`));
      return version;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      version++;
    }
  }
}

async function nextVersion(directory: string): Promise<number> {
  let highest = -1;
  for (const entry of await readdirOrEmpty(directory)) {
    const match = /^(\d+)\.(bin|json)$/.exec(entry);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return highest + 1;
}

async function committedVersions(directory: string): Promise<number[]> {
  const versions: number[] = [];
  for (const entry of await readdirOrEmpty(directory)) {
    const match = /^(\d+)\.json$/.exec(entry);
    if (match) versions.push(Number(match[1]));
  }
  return versions.sort((a, b) => a - b);
}

async function readSidecar(directory: string, version: number): Promise<Sidecar | undefined> {
  const file = path.join(directory, `${version}${SIDECAR}`);
  const raw = await readOrUndefined(file);
  return raw === undefined ? undefined : parseSidecar(file, raw, version);
}

const KINDS: ReadonlySet<unknown> = new Set<StoredPartKind>(['text', 'inline', 'file']);

/** The sidecar in `raw`, checked to have the shape {@link FileArtifactService} writes. */
function parseSidecar(file: string, raw: Buffer, version: number): Sidecar {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new CorruptArtifactError({ location: file, reason: 'not valid JSON', cause: error });
  }
  const corrupt = (reason: string) => new CorruptArtifactError({ location: file, reason });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw corrupt('not a JSON object');
  }
  const sidecar = value as Record<string, unknown>;
  if (sidecar.version !== version) throw corrupt(`it names version ${String(sidecar.version)}`);
  if (typeof sidecar.filename !== 'string') throw corrupt('no file name');
  if (!KINDS.has(sidecar.kind)) throw corrupt(`unknown kind ${JSON.stringify(sidecar.kind)}`);
  if (typeof sidecar.createTime !== 'number') throw corrupt('no creation time');
  for (const key of ['mimeType', 'displayName', 'fileUri'] as const) {
    if (sidecar[key] !== undefined && typeof sidecar[key] !== 'string') {
      throw corrupt(`${key} is not a string`);
    }
  }
  const metadata = sidecar.customMetadata;
  if (
    metadata !== undefined &&
    (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
  ) {
    throw corrupt('customMetadata is not an object');
  }
  return sidecar as unknown as Sidecar;
}

function toVersion(sidecar: Sidecar): ArtifactVersion {
  return {
    version: sidecar.version,
    mimeType: sidecar.mimeType,
    customMetadata: sidecar.customMetadata,
    createTime: sidecar.createTime,
  };
}

async function writeDurably(file: string, data: Buffer | string): Promise<void> {
  const handle = await open(file, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Open without following a symbolic link (`O_NOFOLLOW`) and without blocking on a FIFO
 * (`O_NONBLOCK`): a version or sidecar file must be a regular file the service wrote, never a link
 * planted in its place to make it read another file (even one inside the root).
 */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** A stored file's bytes, `undefined` when it does not exist; anything but a regular file is refused. */
async function readOrUndefined(file: string): Promise<Buffer | undefined> {
  let handle;
  try {
    handle = await open(file, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // ELOOP: the last component is a symbolic link (Linux, macOS; EMLINK on some BSDs).
    if (code === 'ELOOP' || code === 'EMLINK') throw notRegular(file, 'a symbolic link', error);
    throw error;
  }
  try {
    if (!(await handle.stat()).isFile()) throw notRegular(file, 'not a regular file');
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

function notRegular(file: string, what: string, cause?: unknown): ArtifactPathError {
  return new ArtifactPathError({
    path: file,
    message: `Refusing to read "${file}": it is ${what}, not a file the artifact service wrote.`,
    cause,
  });
}

async function readdirOrEmpty(directory: string): Promise<string[]> {
  try {
    return await readdir(directory);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}
