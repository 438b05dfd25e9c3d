import { writeDockerDeployment } from '../deploy';
import { UsageError } from '../errors';
import { stringOption, type CommandInput, type CommandModule } from './command';

function numberOption(values: CommandInput['values'], name: string): number | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value))
    throw new UsageError(`Invalid --${name}: ${raw}`);
  return value;
}

/** `adk deploy docker [agents_dir]`: container files for a folder of agents. */
export const deployCommandModule: CommandModule = {
  name: 'deploy',
  args: 'docker [agents_dir] [options]',
  summary:
    'Write a Dockerfile, .dockerignore and compose.yaml (servers behind HAProxy, worker, PostgreSQL, Redis, migrations) for a folder of agents.',
  details: `Run it in the project root (package.json and its lockfile). Files: <out>/Dockerfile, <out>/compose.yaml,
<out>/haproxy.cfg, <out>/.env.example and .dockerignore at the root. Then: cd <out> && docker compose up --build.
See docs/DEPLOYMENT.md for the environment variables, scaling and Kubernetes.`,
  options: {
    out: {
      type: 'string',
      value: 'DIR',
      description: 'Output folder inside the project (default deploy)',
    },
    replicas: { type: 'string', value: 'N', description: 'adk api_server replicas (default 3)' },
    'node-image': {
      type: 'string',
      value: 'TAG',
      description: 'Tag of the node image (default 24.9.0-bookworm-slim)',
    },
    'shutdown-timeout': {
      type: 'string',
      value: 'S',
      description: 'Drain deadline of the servers on SIGTERM, in seconds (default 25)',
    },
    name: {
      type: 'string',
      value: 'NAME',
      description: 'Compose project name (default the folder name)',
    },
  },
  run: async ({ values, positionals }) => {
    const [target, agentsDir] = positionals;
    if (target !== 'docker') {
      throw new UsageError(
        `adk deploy needs a target: "adk deploy docker [agents_dir]"${target ? ` (got "${target}")` : ''}`,
      );
    }
    const replicas = numberOption(values, 'replicas');
    const shutdown = numberOption(values, 'shutdown-timeout');
    const written = writeDockerDeployment({
      projectDir: process.cwd(),
      agentsDir: agentsDir ?? '.',
      ...(stringOption(values, 'out') ? { outDir: stringOption(values, 'out')! } : {}),
      ...(replicas !== undefined ? { replicas } : {}),
      ...(shutdown !== undefined ? { shutdownTimeoutSeconds: shutdown } : {}),
      ...(stringOption(values, 'node-image')
        ? { nodeImageTag: stringOption(values, 'node-image')! }
        : {}),
      ...(stringOption(values, 'name') ? { name: stringOption(values, 'name')! } : {}),
    });
    for (const file of written.files) process.stdout.write(`wrote ${file}\n`);
    process.stdout.write(
      `Next: cp ${written.options.outDir}/.env.example ${written.options.outDir}/.env, set ADK_API_TOKEN, then (cd ${written.options.outDir} && docker compose up --build)\n`,
    );
    return 0;
  },
};
