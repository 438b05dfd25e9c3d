// @ts-check
/**
 * Import rules checked by `pnpm lint:deps` (part of `pnpm lint`, so of CI):
 * - no import circle in any package's sources (type-only imports count: a circle of types still
 *   ties the modules together);
 * - inside @adk/core, a folder imports only the folders before it in CORE_LAYERS. The order and
 *   what each layer holds are described in docs/ARCHITECTURE.md ("Core's folders").
 */

/** @adk/core's folders, lowest first. A folder may import only folders listed before it. */
const CORE_LAYERS = [
  'errors',
  'content',
  'models',
  'auth',
  'artifacts',
  'diagnostics',
  'events',
  'history',
  'sessions',
  'compression',
  'memory',
  'context',
  'instructions',
  'policies',
  'tools',
  'callbacks',
  'plugins',
  'invocation',
  'flow',
  'agents',
  'app',
  'runner',
];

const core = 'packages/core/src';

/** @type {import('dependency-cruiser').IConfiguration['forbidden']} */
const layerRules = CORE_LAYERS.slice(0, -1).map((folder, index) => ({
  name: `core-layer-${folder}`,
  comment: `@adk/core: "${folder}" may import only the folders before it in CORE_LAYERS (.dependency-cruiser.cjs); move the shared piece down or the importer up.`,
  severity: 'error',
  from: { path: `^${core}/${folder}/`, pathNot: '\\.test\\.ts$' },
  to: { path: `^${core}/(${CORE_LAYERS.slice(index + 1).join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Import circles tie modules together: declare the shared type below both instead.',
      severity: 'error',
      from: { pathNot: '\\.test\\.ts$' },
      to: { circular: true },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.mjs', '.json'],
      conditionNames: ['source', 'import', 'default'],
    },
  },
};
