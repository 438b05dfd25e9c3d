import {
  STOP_GRACE_MARGIN_SECONDS,
  type DockerDeploymentOptions,
} from './docker-deployment-options';

const DATABASE_URL = 'postgres://adk:${POSTGRES_PASSWORD:-adk}@postgres:5432/adk';

function flowList(items: readonly string[]): string {
  return `[${items.map((item) => JSON.stringify(item)).join(', ')}]`;
}

/**
 * The compose file: `server` replicas of `adk api_server` behind HAProxy, an `adk worker`, PostgreSQL
 * (sessions, artifacts, memory), Redis (BullMQ jobs) and a one-shot `migrate` service the others
 * wait for. Every service of the project runs the same image built from the Dockerfile.
 */
export function renderComposeFile(options: DockerDeploymentOptions): string {
  const stores = [
    '--session_service_uri',
    DATABASE_URL,
    '--artifact_service_uri',
    DATABASE_URL,
    '--memory_service_uri',
    DATABASE_URL,
  ];
  const server = [
    'api_server',
    options.agentsDir,
    '--host',
    '0.0.0.0',
    ...stores,
    '--shutdown-timeout',
    String(options.shutdownTimeoutSeconds),
  ];
  const worker = ['worker', options.agentsDir, '--session_service_uri', DATABASE_URL];
  const migrate = ['migrate', ...stores];
  const grace = `${options.shutdownTimeoutSeconds + STOP_GRACE_MARGIN_SECONDS}s`;
  const image = `${options.name}-adk:latest`;
  return `# Written by \`adk deploy docker\`. Start everything from this folder:
#   docker compose up --build
# The API is then at http://127.0.0.1:\${ADK_HTTP_PORT:-8080} (HAProxy, round-robin over the servers).
# Variables (from the environment or a .env file beside this one, see .env.example):
#   ADK_API_TOKEN      required: clients send "Authorization: Bearer <token>" (health checks need none)
#   POSTGRES_PASSWORD  password of the adk database user (default adk)
#   ADK_HTTP_PORT      published port of HAProxy (default 8080)
#   model keys         GOOGLE_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY... passed to servers and workers
name: ${options.name}

x-adk-build: &adk-build
  context: ${options.contextDir}
  dockerfile: ${options.outDir}/Dockerfile

x-adk-environment: &adk-environment
  ADK_QUEUE_URL: redis://redis:6379
  ADK_API_TOKEN: \${ADK_API_TOKEN:?set ADK_API_TOKEN}
  PORT: "${options.port}"
  GOOGLE_API_KEY: \${GOOGLE_API_KEY:-}
  OPENAI_API_KEY: \${OPENAI_API_KEY:-}
  ANTHROPIC_API_KEY: \${ANTHROPIC_API_KEY:-}

services:
  postgres:
    image: postgres:17-bookworm
    environment:
      POSTGRES_USER: adk
      POSTGRES_PASSWORD: \${POSTGRES_PASSWORD:-adk}
      POSTGRES_DB: adk
    volumes:
      - postgres-data:/var/lib/postgresql/data
    healthcheck:
      test: ["CMD-SHELL", "pg_isready -U adk -d adk"]
      interval: 5s
      timeout: 3s
      retries: 20

  redis:
    image: redis:7.4-bookworm
    command: ["redis-server", "--appendonly", "yes"]
    volumes:
      - redis-data:/data
    healthcheck:
      test: ["CMD", "redis-cli", "ping"]
      interval: 5s
      timeout: 3s
      retries: 20

  # One shot: creates or upgrades the tables, then exits; servers and workers start after it.
  migrate:
    build: *adk-build
    image: ${image}
    command: ${flowList(migrate)}
    environment: *adk-environment
    restart: "no"
    depends_on:
      postgres:
        condition: service_healthy

  server:
    image: ${image}
    command: ${flowList(server)}
    environment: *adk-environment
    expose:
      - "${options.port}"
    deploy:
      replicas: ${options.replicas}
    # SIGTERM drains (--shutdown-timeout ${options.shutdownTimeoutSeconds} s); SIGKILL only after this.
    stop_grace_period: ${grace}
    restart: unless-stopped
    depends_on:
      migrate:
        condition: service_completed_successfully
      redis:
        condition: service_healthy

  worker:
    image: ${image}
    command: ${flowList(worker)}
    environment: *adk-environment
    stop_grace_period: ${grace}
    restart: unless-stopped
    # No health endpoint: scale with "docker compose up --scale worker=N".
    healthcheck:
      disable: true
    depends_on:
      migrate:
        condition: service_completed_successfully
      redis:
        condition: service_healthy

  haproxy:
    image: haproxy:3.0-bookworm
    volumes:
      - ./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro
    ports:
      - "\${ADK_HTTP_PORT:-8080}:8080"
    restart: unless-stopped
    depends_on:
      server:
        condition: service_started

volumes:
  postgres-data:
  redis-data:
`;
}

/** The `.env.example` beside the compose file: every variable it reads, documented. */
export function renderEnvExample(): string {
  return `# Copy to .env beside compose.yaml and fill in. Read by docker compose, never copied into the image.
# Bearer token every API call must carry (health endpoints excepted). Required.
ADK_API_TOKEN=
# Password of the "adk" PostgreSQL user (sessions, artifacts, memory).
POSTGRES_PASSWORD=adk
# Port HAProxy publishes on the host.
ADK_HTTP_PORT=8080
# Model provider keys, as the agents need them.
GOOGLE_API_KEY=
OPENAI_API_KEY=
ANTHROPIC_API_KEY=
`;
}
