import { defineConfig } from 'vite';

/**
 * The browser app: `index.html` and `src/app/` bundled into `dist/app/` with relative asset URLs,
 * so that it can be served under any path. `tsup` builds the small Node entry (`src/node/`) that
 * tells `@adk/server` where the files are.
 */
export default defineConfig({
  base: './',
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
});
