import { dirname, resolve } from 'node:path';

import { loadDotEnv } from '../dot-env';
import { UsageError } from '../errors';
import { chat } from './chat';
import { stringOption, type CommandModule } from './command';
import { SERVICE_OPTIONS } from './service-options';

/** `adk run <agent-file>`: chat with an agent in the terminal. */
export const runCommand: CommandModule = {
  name: 'run',
  args: '<agent-file> [options]',
  summary: 'Chat with an agent in the terminal. The file exports `rootAgent` (or a default agent).',
  details:
    'Replies stream as they are generated; tool calls and transfers are shown; approvals are asked\nfor. Type "exit" or press Ctrl+D to quit; Ctrl+C stops the current turn.',
  options: {
    ...SERVICE_OPTIONS,
    session_id: { type: 'string', value: 'ID', description: 'Continue this session' },
    user_id: { type: 'string', value: 'ID', description: 'User id (default "user")' },
  },
  async run({ values, positionals }) {
    const file = positionals[0];
    if (!file) throw new UsageError('adk run needs an agent file: adk run ./agent.ts');
    const option = (name: string) => stringOption(values, name);
    loadDotEnv(dirname(resolve(file)));
    await chat({
      agentFile: file,
      ...(option('session_service_uri')
        ? { sessionServiceUri: option('session_service_uri')! }
        : {}),
      ...(option('artifact_service_uri')
        ? { artifactServiceUri: option('artifact_service_uri')! }
        : {}),
      ...(option('memory_service_uri') ? { memoryServiceUri: option('memory_service_uri')! } : {}),
      ...(option('session_id') ? { sessionId: option('session_id')! } : {}),
      ...(option('user_id') ? { userId: option('user_id')! } : {}),
    });
    return 0;
  },
};
