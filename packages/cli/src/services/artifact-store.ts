import { FileArtifactService, InMemoryArtifactService, SqlArtifactService } from '@adk/artifacts';
import type { ArtifactService } from '@adk/core';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { maskDatabaseUrl } from '@adk/sql-kit';

import { UsageError } from '../errors';
import { openKysely } from './open-kysely';

/** An artifact service and how to release it. */
export interface OpenedArtifactStore {
  service: ArtifactService;
  /** Where artifacts live, for messages (passwords masked). */
  description: string;
  close(): Promise<void>;
}

/**
 * Open the artifact store named by `--artifact_service_uri`, as Python ADK's flag:
 * `memory://`, `file://<dir>` (or a plain folder path), `sqlite:<file>` or `postgres://...` (the
 * table is created when missing). Without a URI, artifacts are files under `defaultDir`.
 */
export async function openArtifactStore(
  uri: string | undefined,
  defaultDir: string,
): Promise<OpenedArtifactStore> {
  if (uri === 'memory://' || uri === 'memory:') {
    return {
      service: new InMemoryArtifactService(),
      description: 'in memory',
      close: async () => undefined,
    };
  }
  if (
    uri?.startsWith('sqlite:') ||
    uri?.startsWith('postgres://') ||
    uri?.startsWith('postgresql://')
  ) {
    const db = await openKysely(uri);
    return {
      service: new SqlArtifactService({ db, autoMigrate: true }),
      description: maskDatabaseUrl(uri),
      close: () => db.destroy(),
    };
  }
  if (uri !== undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(uri) && !uri.startsWith('file://')) {
    throw new UsageError(
      `Unsupported --artifact_service_uri "${maskDatabaseUrl(uri)}": use memory://, file://<dir>, sqlite:<file> or postgres://...`,
    );
  }
  const root =
    uri === undefined
      ? resolve(defaultDir)
      : uri.startsWith('file://')
        ? uri.startsWith('file:///')
          ? fileURLToPath(uri)
          : resolve(uri.slice('file://'.length))
        : resolve(uri);
  return {
    service: new FileArtifactService({ root }),
    description: root,
    close: async () => undefined,
  };
}
