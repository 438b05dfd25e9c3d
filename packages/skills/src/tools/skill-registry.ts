import { InvalidArgumentError } from '@adk/core';

import type { Skill } from '../skill';

/** A tool's answer to the model when it cannot do what was asked. */
export interface SkillToolError {
  error: { code: string; message: string };
}

export function toolError(code: string, message: string): SkillToolError {
  return { error: { code, message } };
}

/** The skills of one toolset by name, shared by its tools. */
export class SkillRegistry {
  private readonly byName = new Map<string, Skill>();

  constructor(skills: readonly Skill[]) {
    for (const skill of skills) {
      if (this.byName.has(skill.name)) {
        throw new InvalidArgumentError({
          message: `SkillToolset: two skills are named "${skill.name}".`,
          argument: 'skills',
        });
      }
      this.byName.set(skill.name, skill);
    }
  }

  get all(): Skill[] {
    return [...this.byName.values()];
  }

  /** The skill named by `args[key]`, or the error the model should see. */
  find(args: Record<string, unknown>, key: string): Skill | SkillToolError {
    const name = args[key];
    if (typeof name !== 'string' || name === '') {
      return toolError('MISSING_SKILL_NAME', `Give the skill's name in "${key}".`);
    }
    const skill = this.byName.get(name);
    if (!skill) {
      const known = [...this.byName.keys()].join(', ');
      return toolError('SKILL_NOT_FOUND', `No skill named "${name}". Skills: ${known || 'none'}.`);
    }
    return skill;
  }
}

export function isToolError(value: unknown): value is SkillToolError {
  return typeof value === 'object' && value !== null && 'error' in value;
}
