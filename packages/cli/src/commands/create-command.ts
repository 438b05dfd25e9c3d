import { relative } from 'node:path';

import { UsageError } from '../errors';
import { createProject } from '../scaffold';
import { stringOption, type CommandModule } from './command';

/** `adk create <name>`: scaffold an agent project. */
export const createCommand: CommandModule = {
  name: 'create',
  args: '<name> [options]',
  summary:
    'Create an agent project: package.json, agent.ts, a FakeModel test (agent.test.ts), an eval set and .env.example.',
  options: {
    dir: { type: 'string', value: 'DIR', description: 'Parent folder (default: the current one)' },
    model: {
      type: 'string',
      value: 'MODEL',
      description: 'Default model of the agent (default gemini-2.5-flash)',
    },
    packages: {
      type: 'string',
      value: 'DIR',
      description:
        'Install the ADK packages from the tarballs of DIR (pnpm pack:all in a clone) instead of a registry',
    },
  },
  async run({ values, positionals }) {
    const name = positionals[0];
    if (!name) throw new UsageError('adk create needs a project name: adk create my_agent');
    const dir = stringOption(values, 'dir');
    const model = stringOption(values, 'model');
    const packages = stringOption(values, 'packages');
    const created = createProject({
      name,
      ...(dir ? { dir } : {}),
      ...(model ? { model } : {}),
      ...(packages ? { packages } : {}),
    });
    const shown = relative(process.cwd(), created.dir) || '.';
    process.stdout.write(
      `Created ${shown}: ${created.files.join(', ')}\n\nNext:\n  cd ${shown}\n  npm install            # or pnpm install\n  npm test\n  cp .env.example .env   # set GEMINI_API_KEY\n  npm start              # adk run agent.ts\n`,
    );
    return 0;
  },
};
