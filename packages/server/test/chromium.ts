import { existsSync } from 'node:fs';

import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`), or `CHROMIUM_PATH`. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether the browser tests can run; under `CI=true` a missing Chromium throws instead. */
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.CI === 'true') {
  throw new Error(
    `Browser tests need Chromium at ${CHROMIUM} (apt-get install -y chromium); CI=true forbids skipping them.`,
  );
}

/** Headless Chromium for one test file, talking to 127.0.0.1 only; `args`: more flags. */
export function launchChromium(args: string[] = []): Promise<Browser> {
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
      ...args,
    ],
  });
}
