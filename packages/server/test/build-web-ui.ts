import { ensureWebUiBuilt } from '@adk/web/ensure-built';

/** Vitest global set-up: the web UI the server serves at `/` must be built. */
export default function setup(): void {
  ensureWebUiBuilt();
}
