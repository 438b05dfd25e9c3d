import { describe, expect, it } from 'vitest';

import { readmeBlocks } from './readme-blocks';

const readme = [
  '# pkg',
  '```sh',
  'npm install pkg',
  '```',
  '```ts',
  "import { a } from 'pkg';",
  'console.log(a);',
  '```',
  'text',
  '```ts fragment',
  'const runner = new Runner({ agent });',
  '```',
  '```typescript',
  '// agents/weather/agent.ts',
  'export const rootAgent = 1;',
  '```',
].join('\n');

describe('readmeBlocks', () => {
  it('returns the complete ts blocks in order, numbered, with their line', () => {
    const blocks = readmeBlocks(readme, 'pkg');
    expect(blocks.map((block) => block.id)).toEqual(['pkg-1', 'pkg-2']);
    expect(blocks[0]).toEqual({
      id: 'pkg-1',
      source: "import { a } from 'pkg';\nconsole.log(a);\n",
      line: 5,
      path: undefined,
    });
  });

  it('leaves out blocks fenced `ts fragment`, and other languages', () => {
    const sources = readmeBlocks(readme, 'pkg').map((block) => block.source);
    expect(sources.join('')).not.toContain('Runner');
    expect(sources.join('')).not.toContain('npm install');
  });

  it('reads the file a first-line comment names', () => {
    expect(readmeBlocks(readme, 'pkg')[1]?.path).toBe('agents/weather/agent.ts');
  });
});
