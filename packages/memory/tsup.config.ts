import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/vitest/index': 'src/testing/vitest/index.ts',
  },
  format: ['esm'],
  dts: { compilerOptions: { customConditions: [] } },
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['vitest', 'sqlite-vec'],
});
