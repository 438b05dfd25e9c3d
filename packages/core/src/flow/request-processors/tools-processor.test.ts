import { describe, expect, it } from 'vitest';

import { empty, input, frozen } from '../../../test/processor-helpers';
import { FunctionTool } from '../../tools/function-tool';
import type { Tool } from '../../tools/tool';
import { toolsProcessor } from './tools-processor';

describe('toolsProcessor', () => {
  it('declares the tools and lets tools adjust a copy of the request', async () => {
    const plain = new FunctionTool({ name: 'plain', description: 'p', execute: () => 1 });
    const adjusting: Tool = {
      name: 'memory',
      description: 'm',
      declaration: () => undefined,
      run: async () => undefined,
      processRequest: (_ctx, request) => {
        request.systemInstruction = `${request.systemInstruction ?? ''}Past: tea.`;
      },
    };
    const original = frozen({ ...empty(), systemInstruction: 'Base. ' });
    const request = await toolsProcessor.process(
      original,
      await input({ name: 'a' }, { tools: [plain, adjusting] }),
    );
    expect(request.config.tools).toEqual([{ functionDeclarations: [plain.declaration()] }]);
    expect(request.systemInstruction).toBe('Base. Past: tea.');
    expect(original.systemInstruction).toBe('Base. ');
  });

  it('leaves a request without tools unchanged', async () => {
    const original = empty();
    expect(await toolsProcessor.process(original, await input({ name: 'a' }))).toBe(original);
  });
});
