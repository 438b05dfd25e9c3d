import type { Part } from '../content';

/** Identifies the owner of artifacts. Names starting with `user:` are shared across the user's sessions. */
export interface ArtifactScope {
  appName: string;
  userId: string;
  sessionId: string;
}

export interface SaveArtifactRequest extends ArtifactScope {
  filename: string;
  /** The artifact: an `inlineData` part (bytes), a `text` part or a `fileData` part (a reference). */
  artifact: Part;
  /** Free-form JSON metadata stored with this version. */
  customMetadata?: Record<string, unknown>;
}

export interface LoadArtifactRequest extends ArtifactScope {
  filename: string;
  /** Version to load; the latest when omitted. */
  version?: number;
}

export interface ArtifactFileRequest extends ArtifactScope {
  filename: string;
}

/** Description of one stored version of an artifact. */
export interface ArtifactVersion {
  version: number;
  /** Media type of the stored part (`text/plain` for text parts). */
  mimeType: string | undefined;
  /** Metadata given to `saveArtifact`. */
  customMetadata: Record<string, unknown> | undefined;
  /** Milliseconds since the epoch when the version was saved. */
  createTime: number;
}

/**
 * Versioned file storage for agents and tools.
 *
 * Contract (identical for every implementation, checked by `artifactServiceConformance` in
 * `@adk/core/testing/vitest`):
 * - versions start at 0 and auto-increment per file; concurrent saves get distinct versions;
 * - names starting with `user:` belong to the user and are visible from every session of the user;
 *   other names belong to the session;
 * - a name that is empty, `.`/`..`-bearing, or holds a path separator, NUL or control character is
 *   refused with `InvalidArtifactNameError` (see `validateArtifactName`) and nothing is stored;
 * - returned parts never alias stored data.
 */
export interface ArtifactService {
  /** Save a new version; returns its version number. */
  saveArtifact(request: SaveArtifactRequest): Promise<number>;
  /** The requested (or latest) version, or `undefined` when absent. */
  loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined>;
  /** File names visible in the scope (session files and the user's `user:` files), sorted. */
  listArtifactKeys(request: ArtifactScope): Promise<string[]>;
  /** Delete every version of a file. Deleting a missing file is not an error. */
  deleteArtifact(request: ArtifactFileRequest): Promise<void>;
  /** Existing versions of a file, ascending; `[]` when the file does not exist. */
  listVersions(request: ArtifactFileRequest): Promise<number[]>;
  /** Every version of a file with its metadata, ascending by version. */
  listArtifactVersions(request: ArtifactFileRequest): Promise<ArtifactVersion[]>;
  /** Metadata of the requested (or latest) version, or `undefined` when absent. */
  getArtifactVersion(request: LoadArtifactRequest): Promise<ArtifactVersion | undefined>;
}
