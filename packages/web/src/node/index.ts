import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Folder of the built web UI (`dist/app/` of this package: `index.html` and its assets). This file
 * sits two levels below the package root both as source (`src/node/`) and built (`dist/node/`).
 *
 * @example
 * ```ts
 * import { webUiDir } from '@adk/web';
 * app.use('/*', serveStatic({ root: webUiDir }));
 * ```
 */
export const webUiDir: string = fileURLToPath(new URL('../../dist/app/', import.meta.url));

/** True when the web UI has been built (`pnpm --filter @adk/web build`; published packages are). */
export function isWebUiBuilt(): boolean {
  return existsSync(join(webUiDir, 'index.html'));
}
