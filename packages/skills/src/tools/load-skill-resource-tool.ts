import type { FunctionDeclaration, Tool } from '@adk/core';

import { isToolError, toolError, type SkillRegistry } from './skill-registry';

/**
 * `load_skill_resource`: one file of a skill, by its path in the skill's folder: anything under
 * `references/`, `assets/` and `scripts/`, and the files `SKILL.md` links to elsewhere in the
 * folder. Nothing outside the folder (`..`, absolute paths and symbolic links leading out are
 * refused), no hidden files, at most `maxBytes` per file (binary files come back in base64).
 */
export class LoadSkillResourceTool implements Tool {
  readonly name = 'load_skill_resource';
  readonly description =
    "Reads a file of a skill (a reference, example, template or script) by its path inside the skill's folder.";
  readonly isIdempotent = true;

  constructor(
    private readonly registry: SkillRegistry,
    private readonly maxBytes: number | undefined,
  ) {}

  declaration(): FunctionDeclaration {
    return {
      name: this.name,
      description: this.description,
      parameters: {
        type: 'object',
        properties: {
          skill_name: { type: 'string', description: 'The name of the skill.' },
          path: {
            type: 'string',
            description:
              "The file's path relative to the skill's folder, e.g. 'references/api.md' or 'examples/basic.md'.",
          },
        },
        required: ['skill_name', 'path'],
      },
    };
  }

  async run(args: Record<string, unknown>): Promise<unknown> {
    const skill = this.registry.find(args, 'skill_name');
    if (isToolError(skill)) return skill;
    const path = args.path;
    if (typeof path !== 'string' || path === '') {
      return toolError('MISSING_RESOURCE_PATH', 'Give the file\'s path in "path".');
    }
    const result = await skill.readResource(
      path,
      this.maxBytes === undefined ? {} : { maxBytes: this.maxBytes },
    );
    if (!result.ok) return toolError(result.code, result.message);
    return { skill_name: skill.name, ...result.resource };
  }
}
