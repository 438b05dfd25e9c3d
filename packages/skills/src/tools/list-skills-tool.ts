import type { FunctionDeclaration, Tool } from '@adk/core';

import { availableSkillsXml } from './skills-prompt';
import type { SkillRegistry } from './skill-registry';

/** `list_skills`: every skill's name and description (also in the instruction of each request). */
export class ListSkillsTool implements Tool {
  readonly name = 'list_skills';
  readonly description = 'Lists the available skills with their names and descriptions.';
  readonly isIdempotent = true;

  constructor(private readonly registry: SkillRegistry) {}

  declaration(): FunctionDeclaration {
    return {
      name: this.name,
      description: this.description,
      parameters: { type: 'object', properties: {} },
    };
  }

  run(): Promise<unknown> {
    return Promise.resolve({ result: availableSkillsXml(this.registry.all) });
  }
}
