import type { CommandModule } from './command';
import { createCommand } from './create-command';
import { deployCommandModule } from './deploy';
import { evalCommandModule } from './eval';
import { mcpCommandModule } from './mcp';
import { migrateCommandModule } from './migrate';
import { workerCommandModule } from './worker';
import { runCommand } from './run-command';
import { apiServerCommand, webCommand } from './server-commands';

export { chat, type ChatOptions } from './chat';
export { commandHelp, type CommandInput, type CommandModule, type CommandOption } from './command';
export { EVAL_HELP, evalCommand, evalCommandModule, type EvalCommandIo } from './eval';
export { serve, type ServeHandle, type ServeOptions } from './serve';

/**
 * Every `adk` command, in the order `adk --help` lists them. To add a command, write a
 * {@link CommandModule} in its own file and append it here.
 */
export const COMMANDS: readonly CommandModule[] = [
  runCommand,
  apiServerCommand,
  webCommand,
  createCommand,
  evalCommandModule,
  mcpCommandModule,
  workerCommandModule,
  migrateCommandModule,
  deployCommandModule,
];
