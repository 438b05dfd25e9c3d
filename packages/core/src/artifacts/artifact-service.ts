import type { Part } from '../content';

/** Identifies the owner of artifacts. Names starting with `user:` are shared across the user's sessions. */
export interface ArtifactScope {
  appName: string;
  userId: string;
  sessionId: string;
}

export interface SaveArtifactRequest extends ArtifactScope {
  filename: string;
  /** The artifact: an `inlineData` part (bytes) or a `text` part. */
  artifact: Part;
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

/** Versioned file storage for agents and tools. Versions start at 0 and auto-increment. */
export interface ArtifactService {
  /** Save a new version; returns its version number. */
  saveArtifact(request: SaveArtifactRequest): Promise<number>;
  /** The requested (or latest) version, or `undefined` when absent. */
  loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined>;
  /** File names visible in the scope (session files and the user's `user:` files), sorted. */
  listArtifactKeys(request: ArtifactScope): Promise<string[]>;
  /** Delete every version of a file. */
  deleteArtifact(request: ArtifactFileRequest): Promise<void>;
  /** Existing versions of a file, ascending. */
  listVersions(request: ArtifactFileRequest): Promise<number[]>;
}
