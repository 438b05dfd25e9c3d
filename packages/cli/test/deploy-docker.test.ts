import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { validate } from 'dockerfile-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { main, UsageError, writeDockerDeployment } from '../src';

const haproxy = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy'].find((path) => existsSync(path));

let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'adk-deploy-docker-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: '@acme/Support Bot' }));
  writeFileSync(join(project, 'pnpm-lock.yaml'), "lockfileVersion: '9.0'\n");
  writeFileSync(join(project, 'pnpm-workspace.yaml'), 'onlyBuiltDependencies: [better-sqlite3]\n');
  mkdirSync(join(project, 'agents', 'support'), { recursive: true });
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas: number };
  stop_grace_period?: string;
  restart?: string;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test?: string[]; disable?: boolean };
}

function instructions(dockerfile: string): Array<[string, string]> {
  return dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.trim().split(/\s+/);
      return [keyword!.toUpperCase(), rest.join(' ')];
    });
}

describe('adk deploy docker', () => {
  it('writes a Dockerfile a Dockerfile linter accepts: multi-stage, pinned Node, frozen install, non-root, health check, SIGTERM', () => {
    const written = writeDockerDeployment({
      projectDir: project,
      agentsDir: 'agents',
      outDir: 'deploy',
    });
    const dockerfile = readFileSync(join(project, 'deploy', 'Dockerfile'), 'utf8');
    // dockerfile-utils is the linter of the VS Code Docker extension: no diagnostic at all.
    expect(validate(dockerfile)).toEqual([]);
    const steps = instructions(dockerfile);
    const froms = steps.filter(([keyword]) => keyword === 'FROM').map(([, arg]) => arg);
    expect(froms).toEqual([
      'node:24.9.0-bookworm-slim AS deps',
      'node:24.9.0-bookworm-slim AS runtime',
    ]);
    expect(steps).toContainEqual(['RUN', 'pnpm install --frozen-lockfile']);
    expect(steps).toContainEqual(['COPY', 'package.json pnpm-lock.yaml pnpm-workspace.yaml ./']);
    const runtime = steps.slice(steps.findIndex(([, arg]) => arg.endsWith('AS runtime')));
    expect(runtime).toContainEqual(['USER', 'node']);
    expect(runtime).toContainEqual(['STOPSIGNAL', 'SIGTERM']);
    const health = runtime.find(([keyword]) => keyword === 'HEALTHCHECK')![1];
    expect(health).toContain('/health/live');
    const cmd = JSON.parse(runtime.find(([keyword]) => keyword === 'CMD')![1]) as string[];
    expect(cmd).toEqual(['api_server', 'agents', '--host', '0.0.0.0']);
    expect(JSON.parse(runtime.find(([keyword]) => keyword === 'ENTRYPOINT')![1])).toEqual([
      'node',
      'node_modules/@adk/cli/bin/adk.js',
    ]);
    // USER comes before the command: nothing in the runtime runs as root.
    expect(runtime.findIndex(([k]) => k === 'USER')).toBeLessThan(
      runtime.findIndex(([k]) => k === 'CMD'),
    );
    expect(written.options.packageManager).toBe('pnpm');
    const ignore = readFileSync(join(project, '.dockerignore'), 'utf8').split('\n');
    expect(ignore).toEqual(expect.arrayContaining(['**/node_modules', '.git', '.env', '**/*.db']));
  });

  it('installs with npm ci from package-lock.json', () => {
    rmSync(join(project, 'pnpm-lock.yaml'));
    writeFileSync(join(project, 'package-lock.json'), '{}');
    writeDockerDeployment({ projectDir: project, agentsDir: 'agents' });
    const dockerfile = readFileSync(join(project, 'deploy', 'Dockerfile'), 'utf8');
    expect(validate(dockerfile)).toEqual([]);
    expect(instructions(dockerfile)).toContainEqual(['RUN', 'npm ci']);
    expect(dockerfile).not.toContain('pnpm');
  });

  it('writes a compose file with replicas, a worker, PostgreSQL, Redis, a one-shot migration and HAProxy', () => {
    writeDockerDeployment({
      projectDir: project,
      agentsDir: 'agents',
      outDir: 'ops/docker',
      replicas: 4,
      shutdownTimeoutSeconds: 40,
    });
    const compose = parse(readFileSync(join(project, 'ops', 'docker', 'compose.yaml'), 'utf8')) as {
      name: string;
      services: Record<string, ComposeService>;
      volumes: Record<string, unknown>;
    };
    expect(compose.name).toBe('support-bot');
    expect(Object.keys(compose.services).sort()).toEqual(
      ['haproxy', 'migrate', 'postgres', 'redis', 'server', 'worker'].sort(),
    );
    const {
      server,
      worker,
      migrate,
      haproxy: lb,
      postgres,
      redis,
    } = compose.services as Record<string, ComposeService>;
    // The build context is the project root, seen from the compose file's folder.
    expect(migrate!.build).toEqual({ context: '../..', dockerfile: 'ops/docker/Dockerfile' });
    expect(server!.image).toBe(migrate!.image);
    expect(worker!.image).toBe(migrate!.image);
    expect(server!.deploy).toEqual({ replicas: 4 });
    expect(server!.command!.slice(0, 4)).toEqual(['api_server', 'agents', '--host', '0.0.0.0']);
    const flag = (command: string[], name: string) => command[command.indexOf(name) + 1];
    const db = flag(server!.command!, '--session_service_uri');
    expect(db).toMatch(/^postgres:\/\/adk:.*@postgres:5432\/adk$/);
    expect(flag(server!.command!, '--artifact_service_uri')).toBe(db);
    expect(flag(server!.command!, '--memory_service_uri')).toBe(db);
    expect(flag(server!.command!, '--shutdown-timeout')).toBe('40');
    // SIGKILL comes only after the drain deadline.
    expect(parseInt(server!.stop_grace_period!, 10)).toBeGreaterThan(40);
    expect(worker!.command!.slice(0, 2)).toEqual(['worker', 'agents']);
    expect(flag(worker!.command!, '--session_service_uri')).toBe(db);
    expect(worker!.healthcheck).toEqual({ disable: true });
    expect(migrate!.command![0]).toBe('migrate');
    expect(migrate!.restart).toBe('no');
    expect(migrate!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    for (const service of [server!, worker!]) {
      expect(service.depends_on!.migrate).toEqual({ condition: 'service_completed_successfully' });
      expect(service.environment!.ADK_QUEUE_URL).toBe('redis://redis:6379');
      expect(service.environment!.ADK_API_TOKEN).toMatch(/^\$\{ADK_API_TOKEN:\?/);
    }
    expect(postgres!.healthcheck!.test!.join(' ')).toContain('pg_isready');
    expect(redis!.healthcheck!.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(lb!.volumes).toEqual(['./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro']);
    expect(lb!.ports).toEqual(['${ADK_HTTP_PORT:-8080}:8080']);
    expect(Object.keys(compose.volumes).sort()).toEqual(['postgres-data', 'redis-data']);
    const cfg = readFileSync(join(project, 'ops', 'docker', 'haproxy.cfg'), 'utf8');
    expect(cfg).toContain('server-template adk 4 server:8000 check resolvers docker');
    expect(cfg).toContain('http-check send meth GET uri /health/ready');
    expect(cfg).toContain('balance roundrobin');
    expect(cfg).toContain('retry-on conn-failure 503');
  });

  it.skipIf(!haproxy && process.env.CI !== 'true')(
    'writes an HAProxy configuration haproxy -c accepts',
    () => {
      expect(haproxy, 'haproxy is not installed (apt-get install -y haproxy)').toBeDefined();
      writeDockerDeployment({ projectDir: project, agentsDir: 'agents' });
      const result = spawnSync(haproxy!, ['-c', '-f', join(project, 'deploy', 'haproxy.cfg')], {
        encoding: 'utf8',
      });
      expect(result.stderr + result.stdout).toContain('Configuration file is valid');
      expect(result.status).toBe(0);
    },
  );

  it('refuses bad input with a UsageError and writes nothing', () => {
    rmSync(join(project, 'pnpm-lock.yaml'));
    expect(() => writeDockerDeployment({ projectDir: project, agentsDir: 'agents' })).toThrow(
      /No lockfile/,
    );
    writeFileSync(join(project, 'pnpm-lock.yaml'), "lockfileVersion: '9.0'\n");
    expect(() => writeDockerDeployment({ projectDir: project, agentsDir: 'missing' })).toThrow(
      UsageError,
    );
    expect(() => writeDockerDeployment({ projectDir: project, agentsDir: '..' })).toThrow(
      /outside the project/,
    );
    expect(() =>
      writeDockerDeployment({ projectDir: project, agentsDir: 'agents', replicas: 0 }),
    ).toThrow(/--replicas/);
    writeFileSync(join(project, '.dockerignore'), 'secrets\n');
    expect(() => writeDockerDeployment({ projectDir: project, agentsDir: 'agents' })).toThrow(
      /was not written by adk deploy docker/,
    );
    expect(existsSync(join(project, 'deploy'))).toBe(false);
    expect(readFileSync(join(project, '.dockerignore'), 'utf8')).toBe('secrets\n');
  });

  it('runs as "adk deploy docker" from the project root and rejects an unknown target', async () => {
    const cwd = process.cwd();
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => (
      out.push(String(chunk)),
      true
    )) as typeof process.stdout.write;
    try {
      process.chdir(project);
      expect(
        await main(['deploy', 'docker', 'agents', '--out', 'k', '--replicas', '2'], process.env),
      ).toBe(0);
      expect(await main(['deploy', 'helm'], process.env)).not.toBe(0);
    } finally {
      process.chdir(cwd);
      process.stdout.write = write;
    }
    const compose = parse(readFileSync(join(project, 'k', 'compose.yaml'), 'utf8')) as {
      services: Record<string, ComposeService>;
    };
    expect(compose.services.server!.deploy).toEqual({ replicas: 2 });
    expect(out.join('')).toContain(`wrote ${join(project, 'k', 'Dockerfile')}`);
  });
});

describe('adk migrate', () => {
  it('needs a store to migrate', async () => {
    const errors: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => (
      errors.push(String(chunk)),
      true
    )) as typeof process.stderr.write;
    try {
      expect(await main(['migrate'], process.env)).not.toBe(0);
    } finally {
      process.stderr.write = write;
    }
    expect(errors.join('')).toContain('--session_service_uri');
  });

  it('creates the session, artifact and memory tables of a SQLite file, which a second run leaves as they are', () => {
    const file = join(project, 'stores.db');
    const uri = `sqlite:${file}`;
    const bin = new URL('../bin/adk.js', import.meta.url).pathname;
    const run = () =>
      execFileSync(
        process.execPath,
        [
          bin,
          'migrate',
          '--session_service_uri',
          uri,
          '--artifact_service_uri',
          uri,
          '--memory_service_uri',
          uri,
        ],
        { encoding: 'utf8' },
      );
    expect(run()).toMatch(/sessions: .*up to date\nartifacts: .*up to date\nmemory: .*up to date/);
    const tables = execFileSync(
      process.execPath,
      [
        '-e',
        `const D=require(${JSON.stringify(require.resolve('better-sqlite3'))});const d=new D(${JSON.stringify(file)});console.log(d.prepare("select name from sqlite_master where type='table'").all().map(r=>r.name).sort().join(','))`,
      ],
      { encoding: 'utf8' },
    );
    expect(tables).toMatch(/sessions/);
    expect(tables).toMatch(/artifact/);
    expect(tables).toMatch(/memor/);
    expect(run()).toContain('up to date');
  });
});
