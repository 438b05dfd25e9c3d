import { fileURLToPath } from 'node:url';

/**
 * Folder of the bundled web chat page (`web/` at the package root). This file sits one level
 * below the root both as source (`src/`) and built (`dist/`), so the same relative URL works.
 */
export const webUiDir: string = fileURLToPath(new URL('../web/', import.meta.url));

/** Settings of the bundled web chat page (`webUi` option of `createAdkServer`). */
export interface WebUiOptions {
  /** Page title (default "ADK Playground"). */
  title?: string;
  /** A notice shown in a banner above the chat, e.g. "Offline demo model". */
  notice?: string;
  /** The app selected when the page opens (default: the first by name). */
  defaultApp?: string;
}
