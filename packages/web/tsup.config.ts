import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/node/index.ts' },
  outDir: 'dist/node',
  format: ['esm'],
  dts: { compilerOptions: { customConditions: [] } },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
