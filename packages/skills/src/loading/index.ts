export { defineSkill, type SkillDefinition } from './define-skill';
export { parseFrontmatter, splitFrontmatter, type SkillFrontmatter } from './frontmatter';
export { loadSkill, loadSkills } from './load-skill';
