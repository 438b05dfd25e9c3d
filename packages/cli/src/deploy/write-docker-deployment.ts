import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';

import { UsageError } from '../errors';
import { renderComposeFile, renderEnvExample } from './compose-file';
import {
  DEFAULT_NODE_IMAGE_TAG,
  type DockerDeploymentOptions,
  type PackageManager,
} from './docker-deployment-options';
import { renderDockerfile, renderDockerignore } from './dockerfile';
import { renderHaproxyConfig } from './haproxy-config';

/** Options of {@link writeDockerDeployment}. */
export interface WriteDockerDeploymentOptions {
  /** The project root: where package.json and the lockfile are (the build context). */
  projectDir: string;
  /** Folder of agents (absolute, or relative to `projectDir`); must be inside the project. */
  agentsDir: string;
  /** Output folder (absolute, or relative to `projectDir`; default `deploy`). */
  outDir?: string;
  /** Server replicas (default 3). */
  replicas?: number;
  /** Node image tag (default {@link DEFAULT_NODE_IMAGE_TAG}). */
  nodeImageTag?: string;
  /** Drain deadline in seconds (default 25). */
  shutdownTimeoutSeconds?: number;
  /** Compose project name (default: the package name, else the folder name). */
  name?: string;
}

/** What {@link writeDockerDeployment} wrote. */
export interface WrittenDockerDeployment {
  options: DockerDeploymentOptions;
  /** Absolute paths of the files written. */
  files: string[];
}

const GENERATED_MARK = '# Written by `adk deploy docker`';

const posix = (path: string) => path.split(sep).join('/');

function detectPackageManager(projectDir: string): { manager: PackageManager; files: string[] } {
  const present = (file: string) => existsSync(join(projectDir, file));
  if (!present('package.json')) {
    throw new UsageError(
      `No package.json in ${projectDir}: run adk deploy docker in the project root`,
    );
  }
  const extras = ['.npmrc'].filter(present);
  if (present('pnpm-lock.yaml')) {
    const workspace = present('pnpm-workspace.yaml') ? ['pnpm-workspace.yaml'] : [];
    return { manager: 'pnpm', files: ['package.json', 'pnpm-lock.yaml', ...workspace, ...extras] };
  }
  if (present('package-lock.json')) {
    return { manager: 'npm', files: ['package.json', 'package-lock.json', ...extras] };
  }
  throw new UsageError(
    `No lockfile in ${projectDir}: the image installs exactly what is locked. Run "pnpm install" or "npm install" first.`,
  );
}

function composeName(projectDir: string, given: string | undefined): string {
  const manifest = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')) as {
    name?: unknown;
  };
  const raw = given ?? (typeof manifest.name === 'string' ? manifest.name : basename(projectDir));
  const name = raw
    .toLowerCase()
    .replace(/^@[^/]*\//, '')
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+/, '');
  if (!name)
    throw new UsageError(`Invalid deployment name "${raw}": use letters, digits, "-" and "_"`);
  return name;
}

function positiveInteger(value: number, label: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new UsageError(`Invalid ${label}: ${value} (an integer >= 1)`);
  return value;
}

/**
 * Write the container deployment of a folder of agents: `Dockerfile` and `.dockerignore` (the
 * latter at the project root, where Docker reads it), `compose.yaml`, `haproxy.cfg` and
 * `.env.example` in the output folder. Bad input (no lockfile, agents outside the project, a bad
 * count) is a {@link UsageError}; nothing is written then.
 */
export function writeDockerDeployment(
  options: WriteDockerDeploymentOptions,
): WrittenDockerDeployment {
  const projectDir = resolve(options.projectDir);
  const agents = resolve(projectDir, options.agentsDir);
  const out = resolve(projectDir, options.outDir ?? 'deploy');
  const agentsRel = posix(relative(projectDir, agents)) || '.';
  const outRel = posix(relative(projectDir, out));
  if (agentsRel.startsWith('..'))
    throw new UsageError(`The agents folder ${agents} is outside the project ${projectDir}`);
  if (!existsSync(agents)) throw new UsageError(`No agents folder at ${agents}`);
  if (!outRel || outRel.startsWith('..')) {
    throw new UsageError(`--out must be a folder inside the project ${projectDir} (got ${out})`);
  }
  const { manager, files } = detectPackageManager(projectDir);
  const shutdown = options.shutdownTimeoutSeconds ?? 25;
  if (!Number.isFinite(shutdown) || shutdown < 0)
    throw new UsageError(`Invalid --shutdown-timeout: ${shutdown}`);
  const resolved: DockerDeploymentOptions = {
    name: composeName(projectDir, options.name),
    agentsDir: agentsRel,
    contextDir: posix(relative(out, projectDir)),
    outDir: outRel,
    packageManager: manager,
    installFiles: files,
    nodeImageTag: options.nodeImageTag ?? DEFAULT_NODE_IMAGE_TAG,
    replicas: positiveInteger(options.replicas ?? 3, '--replicas'),
    shutdownTimeoutSeconds: shutdown,
    port: 8000,
  };
  const outputs: Array<[string, string]> = [
    [join(out, 'Dockerfile'), renderDockerfile(resolved)],
    [join(projectDir, '.dockerignore'), renderDockerignore(resolved)],
    [join(out, 'compose.yaml'), renderComposeFile(resolved)],
    [
      join(out, 'haproxy.cfg'),
      renderHaproxyConfig({
        bind: ':8080',
        servers: {
          kind: 'dns',
          service: 'server',
          port: resolved.port,
          count: resolved.replicas,
          nameserver: '127.0.0.11:53',
        },
      }),
    ],
    [join(out, '.env.example'), renderEnvExample()],
  ];
  const ignoreFile = join(projectDir, '.dockerignore');
  if (existsSync(ignoreFile) && !readFileSync(ignoreFile, 'utf8').startsWith(GENERATED_MARK)) {
    throw new UsageError(
      `${ignoreFile} exists and was not written by adk deploy docker: remove it or merge by hand`,
    );
  }
  mkdirSync(out, { recursive: true });
  for (const [file, text] of outputs) writeFileSync(file, text);
  return { options: resolved, files: outputs.map(([file]) => file) };
}
