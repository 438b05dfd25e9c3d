import type { FunctionDeclaration, Tool, ToolContext } from '@adk/core';

import { commandFor, runScript, type ScriptExecutionOptions } from './script-runner';
import { isToolError, toolError, type SkillRegistry } from './skill-registry';

/**
 * `execute_skill_script`: runs a file of a skill's `scripts/` folder with the arguments the model
 * gives, as separate argv entries (no shell), within a timeout. Present only when the toolset's
 * `scripts` option enables it; with `confirm`, each call first asks a human (the invocation
 * pauses until the confirmation arrives, as for any tool that requires confirmation).
 */
export class ExecuteSkillScriptTool implements Tool {
  readonly name = 'execute_skill_script';
  readonly description =
    "Runs a script from a skill's scripts/ folder with the given arguments and returns its exit code and output.";
  readonly timeoutMs: number;

  constructor(
    private readonly registry: SkillRegistry,
    private readonly options: ScriptExecutionOptions & { confirm?: boolean },
  ) {
    // The script's own timeout ends it first; the tool's is a backstop.
    this.timeoutMs = (options.timeoutMs ?? 60_000) + 5_000;
  }

  declaration(): FunctionDeclaration {
    return {
      name: this.name,
      description: this.description,
      parameters: {
        type: 'object',
        properties: {
          skill_name: { type: 'string', description: 'The name of the skill.' },
          script_name: {
            type: 'string',
            description: "The script's path in the skill's scripts/ folder, e.g. 'report.py'.",
          },
          args: {
            type: 'array',
            items: { type: 'string' },
            description: 'The arguments of the script, one string each.',
          },
        },
        required: ['skill_name', 'script_name'],
      },
    };
  }

  async run(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    const skill = this.registry.find(args, 'skill_name');
    if (isToolError(skill)) return skill;
    const scriptName = args.script_name;
    if (typeof scriptName !== 'string' || scriptName === '') {
      return toolError('MISSING_SCRIPT_NAME', 'Give the script\'s name in "script_name".');
    }
    const scriptArgs = args.args ?? [];
    if (!Array.isArray(scriptArgs) || scriptArgs.some((arg) => typeof arg !== 'string')) {
      return toolError('INVALID_SCRIPT_ARGUMENTS', '"args" must be a list of strings.');
    }
    const file = await skill.scriptFile?.(scriptName);
    if (file === undefined) {
      return toolError(
        'SCRIPT_NOT_FOUND',
        `No script "${scriptName}" in the scripts/ folder of skill "${skill.name}".`,
      );
    }
    const command = await commandFor(file, this.options);
    if (command === undefined) {
      return toolError(
        'UNSUPPORTED_SCRIPT_TYPE',
        `"${scriptName}" has no known interpreter and is not executable.`,
      );
    }
    if (this.options.confirm) {
      const confirmation = context.toolConfirmation;
      if (!confirmation) {
        context.requestConfirmation({
          hint: `Run ${skill.name}/scripts/${scriptName.replace(/^scripts\//, '')} ${(scriptArgs as string[]).join(' ')}`.trim(),
          payload: args,
        });
        return toolError(
          'CONFIRMATION_REQUIRED',
          'Running a skill script needs a human confirmation; it has been requested.',
        );
      }
      if (!confirmation.confirmed) {
        return toolError('TOOL_CALL_REJECTED', 'Running the script was rejected.');
      }
    }
    const result = await runScript(command, scriptArgs as string[], {
      ...this.options,
      cwd: skill.directory!,
      signal: context.signal,
    });
    return { skill_name: skill.name, script_name: scriptName, ...result };
  }
}
