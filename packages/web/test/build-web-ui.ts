import { ensureWebUiBuilt } from '../scripts/ensure-built.mjs';

/** Vitest global set-up: the bundle-size budget reads the Vite build. */
export default function setup(): void {
  ensureWebUiBuilt();
}
