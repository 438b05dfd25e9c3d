import { AdkError } from '@adk/core';

import packageJson from '../package.json' with { type: 'json' };
import { COMMANDS, commandHelp } from './commands';
import { parseCommandArgs } from './commands/command';
import { UsageError } from './errors';

/** The text of `adk --help`, listing every command of {@link COMMANDS}. */
export const HELP = `adk ${packageJson.version}: ADK for TypeScript command line

Usage: adk <command> [arguments] [options]

Commands:
${COMMANDS.map((command) => `  adk ${command.name} ${command.args}\n      ${command.summary}`).join('\n')}

Run "adk <command> --help" for a command's options, "adk --version" for the version.
`;

/** Run the `adk` command line; returns the exit code (servers keep running until a signal). */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (!name || name === '--help' || name === '-h' || name === 'help') {
      const topic =
        name === 'help' ? COMMANDS.find((command) => command.name === rest[0]) : undefined;
      process.stdout.write(topic ? commandHelp(topic) : HELP);
      return 0;
    }
    if (name === '--version' || name === '-v' || name === 'version') {
      process.stdout.write(`${packageJson.version}\n`);
      return 0;
    }
    const command = COMMANDS.find((candidate) => candidate.name === name);
    if (!command) throw new UsageError(`Unknown command "${name}". Run "adk --help".`);
    const { values, positionals, help } = parseCommandArgs(command, rest);
    if (help) {
      process.stdout.write(commandHelp(command));
      return 0;
    }
    return await command.run({ values, positionals, env });
  } catch (error) {
    if (UsageError.isInstance(error)) process.stderr.write(`${error.message}\n`);
    else if (AdkError.isInstance(error)) process.stderr.write(`error: ${error.message}\n`);
    else process.stderr.write(`error: ${(error as Error)?.stack ?? String(error)}\n`);
    return UsageError.isInstance(error) ? 2 : 1;
  }
}
