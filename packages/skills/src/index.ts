export { SkillFormatError } from './errors';
export {
  defineSkill,
  loadSkill,
  loadSkills,
  parseFrontmatter,
  splitFrontmatter,
  type SkillDefinition,
  type SkillFrontmatter,
} from './loading';
export {
  DEFAULT_MAX_RESOURCE_BYTES,
  type Skill,
  type SkillResource,
  type SkillResourceProblem,
  type SkillResourceResult,
} from './skill';
export {
  ExecuteSkillScriptTool,
  ListSkillsTool,
  LoadSkillResourceTool,
  LoadSkillTool,
  SkillToolset,
  type ScriptExecutionOptions,
  type ScriptResult,
  type SkillToolsetOptions,
} from './tools';
