import type {
  ArtifactFileRequest,
  ArtifactScope,
  ArtifactService,
  ArtifactVersion,
  LoadArtifactRequest,
  SaveArtifactRequest,
} from '../artifacts';
import type { Part } from '../content';
import type { EventActions } from '../events';

/**
 * The artifact service an agent run by an `AgentTool` sees: every call is redirected to the
 * calling agent's session, and every save is recorded in the calling tool call's
 * `actions.artifactDelta`, so artifacts the child produces land in the parent's session and event.
 */
export class ParentScopedArtifactService implements ArtifactService {
  constructor(
    private readonly inner: ArtifactService,
    private readonly scope: ArtifactScope,
    private readonly actions: EventActions,
  ) {}

  async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    const version = await this.inner.saveArtifact({ ...request, ...this.scope });
    this.actions.artifactDelta[request.filename] = version;
    return version;
  }

  loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined> {
    return this.inner.loadArtifact({ ...request, ...this.scope });
  }

  listArtifactKeys(_request: ArtifactScope): Promise<string[]> {
    return this.inner.listArtifactKeys(this.scope);
  }

  deleteArtifact(request: ArtifactFileRequest): Promise<void> {
    return this.inner.deleteArtifact({ ...request, ...this.scope });
  }

  listVersions(request: ArtifactFileRequest): Promise<number[]> {
    return this.inner.listVersions({ ...request, ...this.scope });
  }

  listArtifactVersions(request: ArtifactFileRequest): Promise<ArtifactVersion[]> {
    return this.inner.listArtifactVersions({ ...request, ...this.scope });
  }

  getArtifactVersion(request: LoadArtifactRequest): Promise<ArtifactVersion | undefined> {
    return this.inner.getArtifactVersion({ ...request, ...this.scope });
  }
}
