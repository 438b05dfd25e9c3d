import type { ReadonlyContext, Tool, Toolset } from '@adk/core';

import type { Skill } from '../skill';
import { ExecuteSkillScriptTool } from './execute-skill-script-tool';
import { ListSkillsTool } from './list-skills-tool';
import { LoadSkillResourceTool } from './load-skill-resource-tool';
import { LoadSkillTool } from './load-skill-tool';
import type { ScriptExecutionOptions } from './script-runner';
import { SkillRegistry } from './skill-registry';

/** Options of {@link SkillToolset}. */
export interface SkillToolsetOptions {
  /** The skills, from {@link loadSkills}, {@link loadSkill} or {@link defineSkill}. */
  skills: readonly Skill[];
  /**
   * Let the model run the files of skills' `scripts/` folders (`execute_skill_script`). Off by
   * default: scripts are code, and run with this process's user. `true` for the defaults, or the
   * options (timeout, output cap, interpreters, environment, `confirm` to ask a human first).
   */
  scripts?: boolean | (ScriptExecutionOptions & { confirm?: boolean });
  /** Most bytes of one file `load_skill_resource` returns (default 1 MiB). */
  maxResourceBytes?: number;
}

/**
 * Skills for an agent, disclosed progressively as the Agent Skills format intends: every request
 * carries only the skills' names and descriptions; the model loads a skill's instructions
 * (`load_skill`) and its files (`load_skill_resource`) when it decides to use it, and runs its
 * scripts (`execute_skill_script`) only when the toolset enables them. The tools have Python
 * ADK's names and arguments (`list_skills`, `load_skill`, `load_skill_resource`,
 * `execute_skill_script`; scripts take `args` as a list rather than one string).
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({
 *   name: 'assistant',
 *   model,
 *   tools: [new SkillToolset({ skills: await loadSkills('./skills') })],
 * });
 * ```
 */
export class SkillToolset implements Toolset {
  readonly name = 'skills';
  private readonly tools: Tool[];

  constructor(options: SkillToolsetOptions) {
    const registry = new SkillRegistry(options.skills);
    const scripts = options.scripts === true ? {} : options.scripts || undefined;
    this.tools = [
      new ListSkillsTool(registry),
      new LoadSkillTool(registry, scripts !== undefined),
      new LoadSkillResourceTool(registry, options.maxResourceBytes),
      ...(scripts === undefined ? [] : [new ExecuteSkillScriptTool(registry, scripts)]),
    ];
  }

  getTools(_context?: ReadonlyContext): Promise<Tool[]> {
    return Promise.resolve(this.tools);
  }
}
