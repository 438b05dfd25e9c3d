import { dirname, join, resolve } from 'node:path';

import { parseDatabaseUrl } from '@adk/sql-kit';

/**
 * Where artifacts go when no `--artifact_service_uri` is given: next to the sessions. With a
 * `sqlite:<file>` session store, `.adk/artifacts` beside that file; otherwise
 * `<baseDir>/.adk/artifacts` (the agents folder, or the agent file's folder for `adk run`), where
 * Python ADK keeps its local artifacts too.
 */
export function defaultArtifactsDir(
  sessionServiceUri: string | undefined,
  baseDir: string,
): string {
  if (sessionServiceUri?.startsWith('sqlite:')) {
    const parsed = parseDatabaseUrl(sessionServiceUri);
    if (parsed.kind === 'sqlite' && parsed.path !== ':memory:') {
      return join(dirname(resolve(parsed.path)), '.adk', 'artifacts');
    }
  }
  return join(resolve(baseDir), '.adk', 'artifacts');
}
