import { parseArgs } from 'node:util';

import { UsageError } from '../errors';

/** One option of a command: its parser type and the line `adk <command> --help` shows. */
export interface CommandOption {
  type: 'string' | 'boolean';
  multiple?: boolean;
  /** Placeholder of the value in the help, e.g. `URI`. */
  value?: string;
  description: string;
}

/** What a command's `run` receives. */
export interface CommandInput {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * One `adk` sub-command. Commands are plain objects listed in `COMMANDS`; adding one is adding a
 * module to that list: `adk --help` and `adk <name> --help` are generated from these fields.
 */
export interface CommandModule {
  /** The word after `adk`. */
  name: string;
  /** Arguments after the name in the usage line, e.g. `<agent-file>`. */
  args: string;
  /** One line for `adk --help`. */
  summary: string;
  /** More text for `adk <name> --help` (optional). */
  details?: string;
  options: Record<string, CommandOption>;
  /** Run it; resolves to the exit code (servers resolve only when stopped). */
  run(input: CommandInput): Promise<number>;
}

/** The text of `adk <name> --help`. */
export function commandHelp(command: CommandModule): string {
  const lines = [`Usage: adk ${command.name} ${command.args}`.trimEnd(), '', command.summary];
  if (command.details) lines.push('', command.details.trimEnd());
  const options = Object.entries(command.options);
  lines.push('', 'Options:');
  const labels = options.map(([name, option]) =>
    option.type === 'string' ? `--${name} ${option.value ?? 'VALUE'}` : `--${name}`,
  );
  labels.push('--help');
  const width = Math.max(...labels.map((label) => label.length)) + 2;
  options.forEach(([, option], index) =>
    lines.push(`  ${labels[index]!.padEnd(width)}${option.description}`),
  );
  lines.push(`  ${'--help'.padEnd(width)}Show this help`);
  return `${lines.join('\n')}\n`;
}

/** Parse a command's arguments strictly; unknown options are a {@link UsageError}. */
export function parseCommandArgs(
  command: CommandModule,
  args: string[],
): { values: CommandInput['values']; positionals: string[]; help: boolean } {
  const options = Object.fromEntries(
    Object.entries(command.options).map(([name, option]) => [
      name,
      { type: option.type, ...(option.multiple ? { multiple: true } : {}) },
    ]),
  );
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    const { help, ...rest } = values as CommandInput['values'] & { help?: boolean };
    return { values: rest, positionals, help: help === true };
  } catch (error) {
    throw new UsageError(`${(error as Error).message}. Run "adk ${command.name} --help".`);
  }
}

/** A string option's value, if given. */
export function stringOption(values: CommandInput['values'], name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}
