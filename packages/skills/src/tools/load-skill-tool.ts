import type { FunctionDeclaration, LlmRequest, ReadonlyContext, Tool } from '@adk/core';

import { availableSkillsXml, skillsInstruction } from './skills-prompt';
import { isToolError, type SkillRegistry } from './skill-registry';

/**
 * `load_skill`: a skill's instructions (the body of its `SKILL.md`), its front matter and the
 * paths of the files it may read. Before each model call it adds the skills instruction and the
 * list of skills to the request (names and descriptions only: the cheap first level).
 */
export class LoadSkillTool implements Tool {
  readonly name = 'load_skill';
  readonly description = "Loads a skill's instructions (its SKILL.md) and lists its files.";
  readonly isIdempotent = true;

  constructor(
    private readonly registry: SkillRegistry,
    private readonly canRunScripts: boolean,
  ) {}

  declaration(): FunctionDeclaration {
    return {
      name: this.name,
      description: this.description,
      parameters: {
        type: 'object',
        properties: { name: { type: 'string', description: 'The name of the skill to load.' } },
        required: ['name'],
      },
    };
  }

  async run(args: Record<string, unknown>): Promise<unknown> {
    const skill = this.registry.find(args, 'name');
    if (isToolError(skill)) return skill;
    const { name, description, license, compatibility, allowedTools, metadata } = skill.frontmatter;
    return {
      skill_name: skill.name,
      instructions: await skill.instructions(),
      frontmatter: {
        name,
        description,
        ...(license === undefined ? {} : { license }),
        ...(compatibility === undefined ? {} : { compatibility }),
        ...(allowedTools === undefined ? {} : { 'allowed-tools': allowedTools }),
        metadata,
      },
      resources: await skill.listResources(),
    };
  }

  processRequest(_context: ReadonlyContext, request: LlmRequest): void {
    const block = `${skillsInstruction(this.canRunScripts)}\n\n${availableSkillsXml(this.registry.all)}`;
    request.systemInstruction = request.systemInstruction
      ? `${request.systemInstruction}\n\n${block}`
      : block;
  }
}
