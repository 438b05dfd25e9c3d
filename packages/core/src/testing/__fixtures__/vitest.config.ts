import { defineConfig } from 'vitest/config';

/** Runs the fixtures of this folder on their own (they are meant to fail). */
export default defineConfig({
  test: { include: ['*.fixture.ts'], root: import.meta.dirname, environment: 'node' },
});
