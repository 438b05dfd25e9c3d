import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';

/** Where Python's `adk web` serves its UI; this server serves the same files there too. */
export const DEV_UI_PATH = '/dev-ui/';

/**
 * Serve the static files of `root` at `/` and at `/dev-ui/` (where `adk web` serves the official
 * UI, so its links and habits work here): `/dev-ui` redirects to `/dev-ui/`, whose relative
 * asset URLs need the trailing slash. `notBuiltPage` answers both roots with 503 when the bundled
 * UI has not been built (a source checkout).
 */
export function mountWebUi(app: Hono, root: string, notBuiltPage?: string): void {
  app.get(DEV_UI_PATH.slice(0, -1), (c) => {
    const query = new URL(c.req.url).search;
    return c.redirect(`${DEV_UI_PATH}${query}`, 301);
  });
  if (notBuiltPage !== undefined) {
    app.get('/', (c) => c.html(notBuiltPage, 503));
    app.get(DEV_UI_PATH, (c) => c.html(notBuiltPage, 503));
  }
  app.use(
    `${DEV_UI_PATH}*`,
    serveStatic({
      root,
      index: 'index.html',
      rewriteRequestPath: (path) => path.slice(DEV_UI_PATH.length - 1),
    }),
  );
  app.use('/*', serveStatic({ root, index: 'index.html' }));
}
