import { existsSync } from 'node:fs';

import { chromium, type Browser } from 'playwright-core';

import { CheckFailure } from '../run-command';

/** Debian's Chromium (`apt-get install -y chromium`), or `CHROMIUM_PATH`. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless Chromium talking to 127.0.0.1 only; a missing browser fails the check. */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new CheckFailure(
      `The consumer check loads adk web in Chromium: none at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}
