import { isWebUiBuilt, webUiDir as builtWebUiDir } from '@adk/web';

/**
 * Folder of the web UI (`dist/app/` of `@adk/web`: chat, event inspector, traces, agent graph,
 * state, artifacts, sessions, evals), served at `/` with the `webUi` option.
 */
export const webUiDir: string = builtWebUiDir;

/** True when `@adk/web` has been built (the published package always is). */
export { isWebUiBuilt };

/** Settings of the bundled web UI (`webUi` option of `createAdkServer`). */
export interface WebUiOptions {
  /** Page title (default "ADK Playground"). */
  title?: string;
  /** A notice shown in a banner above the chat, e.g. "Offline demo model". */
  notice?: string;
  /** The app selected when the page opens (default: the first by name). */
  defaultApp?: string;
}

/** The page served at `/` when the web UI has not been built (a source checkout without a build). */
export const WEB_UI_NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ADK web UI not built</title></head>
<body style="font:15px system-ui;margin:2rem">
<h1>The ADK web UI is not built</h1>
<p>The API works; the page needs a build of <code>@adk/web</code>. In the repository run
<code>pnpm --filter @adk/web build</code>, then reload.</p>
</body></html>`;
