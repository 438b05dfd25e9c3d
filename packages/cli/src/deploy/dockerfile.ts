import { PNPM_VERSION, type DockerDeploymentOptions } from './docker-deployment-options';

/** A tiny probe in Node (slim images have no curl): exit 0 when `/health/live` answers 2xx. */
function healthProbe(): string {
  const script =
    "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/health/live')" +
    '.then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))';
  return JSON.stringify(['node', '-e', script]);
}

function installCommand(options: DockerDeploymentOptions): string[] {
  if (options.packageManager === 'pnpm') {
    return [
      `RUN npm install -g pnpm@${PNPM_VERSION}`,
      `COPY ${options.installFiles.join(' ')} ./`,
      'RUN pnpm install --frozen-lockfile',
    ];
  }
  return [`COPY ${options.installFiles.join(' ')} ./`, 'RUN npm ci'];
}

/**
 * The multi-stage Dockerfile: a `deps` stage with build tools installs the locked dependencies
 * (native modules such as better-sqlite3 compile there when no prebuilt binary downloads), and the
 * runtime stage copies them with the project, runs as the image's unprivileged `node` user, checks
 * `/health/live`, and stops on SIGTERM so `adk api_server` drains its runs before exiting.
 */
export function renderDockerfile(options: DockerDeploymentOptions): string {
  const image = `node:${options.nodeImageTag}`;
  const server = ['api_server', options.agentsDir, '--host', '0.0.0.0'];
  return [
    '# syntax=docker/dockerfile:1',
    `# Written by \`adk deploy docker\`. Build from the project root:`,
    `#   docker build -f ${options.outDir}/Dockerfile -t ${options.name}-adk .`,
    '',
    `FROM ${image} AS deps`,
    'WORKDIR /app',
    '# Compilers for native modules whose prebuilt binary cannot be downloaded (better-sqlite3).',
    'RUN apt-get update \\',
    '  && apt-get install -y --no-install-recommends python3 make g++ \\',
    '  && rm -rf /var/lib/apt/lists/*',
    ...installCommand(options),
    '',
    `FROM ${image} AS runtime`,
    'ENV NODE_ENV=production',
    `ENV PORT=${options.port}`,
    'WORKDIR /app',
    'COPY --from=deps --chown=node:node /app/node_modules ./node_modules',
    'COPY --chown=node:node . .',
    'USER node',
    `EXPOSE ${options.port}`,
    `HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 CMD ${healthProbe()}`,
    '# adk api_server drains on SIGTERM: no new runs, /health/ready answers 503, runs in flight',
    '# get --shutdown-timeout seconds. Give the container more than that before SIGKILL.',
    'STOPSIGNAL SIGTERM',
    'ENTRYPOINT ["node", "node_modules/@adk/cli/bin/adk.js"]',
    `CMD ${JSON.stringify(server)}`,
    '',
  ].join('\n');
}

/** The `.dockerignore`: nothing local (dependencies, databases, secrets, git) enters the image. */
export function renderDockerignore(options: DockerDeploymentOptions): string {
  return [
    '# Written by `adk deploy docker`.',
    '**/node_modules',
    '.git',
    '.adk',
    '**/*.db',
    '**/*.db-journal',
    '**/*.db-wal',
    '**/*.db-shm',
    '.env',
    '.env.*',
    '**/.DS_Store',
    'coverage',
    `${options.outDir}/compose.yaml`,
    `${options.outDir}/haproxy.cfg`,
    '',
  ].join('\n');
}
