export { ExecuteSkillScriptTool } from './execute-skill-script-tool';
export { ListSkillsTool } from './list-skills-tool';
export { LoadSkillResourceTool } from './load-skill-resource-tool';
export { LoadSkillTool } from './load-skill-tool';
export type { ScriptExecutionOptions, ScriptResult } from './script-runner';
export { SkillToolset, type SkillToolsetOptions } from './skill-toolset';
