/**
 * The TypeScript blocks of a README. The convention (docs/EXTENDING.md, "README code blocks"):
 * a block fenced ` ```ts ` is a complete module, compiled on its own against the installed
 * packages; a block fenced ` ```ts fragment ` continues an earlier one (it uses names declared
 * elsewhere) and is not compiled. A complete block whose first line is a comment naming a file
 * (`// agents/weather/agent.ts`) is written to that path.
 */
export interface ReadmeBlock {
  /** `<prefix>-<n>`, n counting the complete blocks of the README from 1. */
  id: string;
  /** The code, without the fences. */
  source: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The path its first-line comment names, if any. */
  path: string | undefined;
}

const OPENING = /^```(ts|typescript)((?:\s+[\w-]+)*)\s*$/;
const PATH_COMMENT = /^\/\/\s*([\w./-]+\.(?:ts|mts|js|mjs))\s*$/;

/** The complete (compilable) TypeScript blocks of `markdown`, fragments left out. */
export function readmeBlocks(markdown: string, idPrefix: string): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const opening = OPENING.exec(lines[index]!);
    if (!opening) continue;
    const words = (opening[2] ?? '').trim().split(/\s+/).filter(Boolean);
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && !/^```\s*$/.test(lines[index]!); index++) {
      body.push(lines[index]!);
    }
    if (words.includes('fragment')) continue;
    blocks.push({
      id: `${idPrefix}-${blocks.length + 1}`,
      source: `${body.join('\n')}\n`,
      line: start + 1,
      path: PATH_COMMENT.exec(body[0] ?? '')?.[1],
    });
  }
  return blocks;
}
