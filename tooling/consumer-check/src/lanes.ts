import { hostNode, registryNode, type NodeRuntime } from './node-runtime';

/** One Node.js with one set of peer versions: every check runs once per lane and manager. */
export interface Lane {
  name: string;
  runtime: (cacheDir: string) => Promise<NodeRuntime>;
  /**
   * The package managers this lane installs with. Node 22 runs npm only: its peers are Node 24's
   * but for `@types/node`, and what pnpm's layout can break (an undeclared dependency, a type
   * resolved through a package the project did not install) does not depend on the Node version,
   * so pnpm on Node 20 and 24 covers it; the lane's time went to CI's 30-minute budget instead.
   */
  managers: readonly ('npm' | 'pnpm')[];
  /** Registry packages of the full project: the peers at the versions the lane tests. */
  registry: Record<string, string>;
}

/** What every full project installs beside the ADK tarballs, whatever the lane. */
const COMMON = {
  zod: '^4.0.0',
  pg: '^8.0.0',
  '@types/pg': '^8.0.0',
  '@types/better-sqlite3': '^7.6.0',
  '@opentelemetry/api': '~1.9.0',
  '@opentelemetry/sdk-trace-base': '^2.0.0',
  typescript: '~5.9.0',
  // the a2a README's client of another framework is the official SDK, installed by its user
  '@a2a-js/sdk': '~1.3.0',
  // @adk/a2a/grpc's optional peers (every entry point is compiled)
  '@grpc/grpc-js': '^1.14.0',
  '@bufbuild/protobuf': '^2.10.2',
  // the conformance suites' README blocks import @adk/core/testing/vitest
  vitest: '~4.1.0',
  // the server README's /run_live client
  ws: '^8.18.0',
  '@types/ws': '^8.18.0',
  // what README blocks import beside the ADK packages, as their users install them: the a2a
  // README mounts a server in the user's own Hono app, the telemetry README exports with OTLP
  // (but not @opentelemetry/sdk-node: the check runs startTelemetry without it)
  hono: '^4.13.19',
  '@opentelemetry/exporter-trace-otlp-http': '~0.223.0',
};

/**
 * The lanes: the machine's Node (20) with the peer majors that run there (kysely 0.28,
 * better-sqlite3 12), and Node 22 and 24 from the npm registry with the current majors (kysely
 * 0.29, better-sqlite3 13).
 */
export const LANES: readonly Lane[] = [
  {
    name: 'node20',
    runtime: () => hostNode(),
    managers: ['npm', 'pnpm'],
    registry: {
      ...COMMON,
      kysely: '~0.28.0',
      'better-sqlite3': '^12.0.0',
      '@types/node': '^20.19.0',
      // the models-gemini README's Vertex AI token source (11 needs Node 22)
      'google-auth-library': '^10.0.0',
      // the models-ai-sdk README's provider: specification v3 (3.x, specification v4, needs Node 22)
      '@ai-sdk/openai-compatible': '^2.0.0',
      '@ai-sdk/anthropic': '^3.0.0',
    },
  },
  {
    name: 'node22',
    runtime: (cacheDir) => registryNode(22, cacheDir),
    managers: ['npm'],
    registry: {
      ...COMMON,
      kysely: '^0.29.0',
      'better-sqlite3': '^13.0.0',
      '@types/node': '^22.0.0',
      'google-auth-library': '^11.0.0',
      '@ai-sdk/openai-compatible': '^2.0.0',
      '@ai-sdk/anthropic': '^3.0.0',
    },
  },
  {
    name: 'node24',
    runtime: (cacheDir) => registryNode(24, cacheDir),
    managers: ['npm', 'pnpm'],
    registry: {
      ...COMMON,
      kysely: '^0.29.0',
      'better-sqlite3': '^13.0.0',
      '@types/node': '^24.0.0',
      'google-auth-library': '^11.0.0',
      // 3.x (specification v4) ships declarations that do not compile with skipLibCheck off and
      // exactOptionalPropertyTypes, as this check compiles README blocks; 2.x does.
      '@ai-sdk/openai-compatible': '^2.0.0',
      '@ai-sdk/anthropic': '^3.0.0',
    },
  },
];
