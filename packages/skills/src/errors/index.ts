export { SkillFormatError } from './skill-format-error';
