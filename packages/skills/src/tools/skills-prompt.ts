import type { Skill } from '../skill';

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => escapes[char]!);
}

/** The skills' names and descriptions in the `<available_skills>` form models are trained on. */
export function availableSkillsXml(skills: readonly Skill[]): string {
  const lines = ['<available_skills>'];
  for (const skill of skills) {
    lines.push(
      '<skill>',
      `<name>${escape(skill.name)}</name>`,
      `<description>${escape(skill.description)}</description>`,
      '</skill>',
    );
  }
  lines.push('</available_skills>');
  return lines.join('\n');
}

/** The instruction the toolset adds to every request, before the list of skills. */
export function skillsInstruction(canRunScripts: boolean): string {
  const lines = [
    'You have skills: folders of instructions and files for specialised tasks, listed below by name and description.',
    'When a skill fits the request, call `load_skill` with its name and read its instructions before you answer; then follow them, step by step.',
    "Read the files a skill's instructions mention (references, examples, templates) with `load_skill_resource`, giving the skill's name and the file's path relative to the skill's folder.",
  ];
  if (canRunScripts) {
    lines.push(
      "Run a script of a skill's `scripts/` folder with `execute_skill_script`, passing its arguments as a list of strings.",
    );
  }
  return lines.join('\n');
}
