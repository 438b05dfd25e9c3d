import {
  artifactMimeType,
  type ArtifactFileRequest,
  type ArtifactScope,
  type ArtifactService,
  type ArtifactVersion,
  type LoadArtifactRequest,
  type Part,
  type SaveArtifactRequest,
} from '@adk/core';

import {
  checkLoad,
  checkSave,
  checkScope,
  copyMetadata,
  locate,
  type ResolvedLocation,
} from '../internal/request-checks';

interface StoredVersion {
  part: Part;
  info: ArtifactVersion;
}

/**
 * Artifacts kept in process memory: fast, versioned, gone when the process exits. For tests,
 * development and single-process apps.
 *
 * @example
 * ```ts
 * const artifacts = new InMemoryArtifactService();
 * const runner = new Runner({ appName: 'app', agent, artifactService: artifacts });
 * ```
 */
export class InMemoryArtifactService implements ArtifactService {
  /** scope key (app, user, session or user scope) -> file name -> versions in order. */
  readonly #scopes = new Map<string, Map<string, StoredVersion[]>>();

  async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    const location = checkSave(request);
    const files = this.#files(location, true);
    let versions = files.get(location.filename);
    if (!versions) {
      versions = [];
      files.set(location.filename, versions);
    }
    const version = versions.length === 0 ? 0 : versions[versions.length - 1]!.info.version + 1;
    versions.push({
      part: structuredClone(request.artifact),
      info: {
        version,
        mimeType: artifactMimeType(request.artifact),
        customMetadata: copyMetadata(request.customMetadata),
        createTime: Date.now(),
      },
    });
    return version;
  }

  async loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined> {
    const stored = this.#find(checkLoad(request), request.version);
    return stored ? structuredClone(stored.part) : undefined;
  }

  async getArtifactVersion(request: LoadArtifactRequest): Promise<ArtifactVersion | undefined> {
    const stored = this.#find(checkLoad(request), request.version);
    return stored ? structuredClone(stored.info) : undefined;
  }

  async listArtifactKeys(request: ArtifactScope): Promise<string[]> {
    checkScope(request);
    const session = this.#scopes.get(scopeKey({ ...request }));
    const user = this.#scopes.get(scopeKey({ ...request, sessionId: undefined }));
    return [...(session?.keys() ?? []), ...(user?.keys() ?? [])].sort();
  }

  async deleteArtifact(request: ArtifactFileRequest): Promise<void> {
    const location = locate(request);
    this.#files(location, false)?.delete(location.filename);
  }

  async listVersions(request: ArtifactFileRequest): Promise<number[]> {
    const location = locate(request);
    return (this.#files(location, false)?.get(location.filename) ?? []).map((v) => v.info.version);
  }

  async listArtifactVersions(request: ArtifactFileRequest): Promise<ArtifactVersion[]> {
    const location = locate(request);
    return (this.#files(location, false)?.get(location.filename) ?? []).map((v) =>
      structuredClone(v.info),
    );
  }

  #find(location: ResolvedLocation, version: number | undefined): StoredVersion | undefined {
    const versions = this.#files(location, false)?.get(location.filename);
    if (!versions || versions.length === 0) return undefined;
    if (version === undefined) return versions[versions.length - 1];
    return versions.find((v) => v.info.version === version);
  }

  #files(location: Omit<ResolvedLocation, 'filename'>, create: true): Map<string, StoredVersion[]>;
  #files(
    location: Omit<ResolvedLocation, 'filename'>,
    create: false,
  ): Map<string, StoredVersion[]> | undefined;
  #files(
    location: Omit<ResolvedLocation, 'filename'>,
    create: boolean,
  ): Map<string, StoredVersion[]> | undefined {
    const key = scopeKey(location);
    let files = this.#scopes.get(key);
    if (!files && create) {
      files = new Map();
      this.#scopes.set(key, files);
    }
    return files;
  }
}

function scopeKey(location: {
  appName: string;
  userId: string;
  sessionId: string | undefined;
}): string {
  return JSON.stringify([location.appName, location.userId, location.sessionId ?? null]);
}
