import { describe, expect, it } from 'vitest';

import { input } from '../../../test/processor-helpers';
import type { LlmRequest } from '../../models';
import { buildRequest } from './default-processors';

describe('buildRequest', () => {
  it('runs the processors in order', async () => {
    const order: string[] = [];
    const step = (name: string) => ({
      name,
      process: async (request: LlmRequest) => {
        order.push(name);
        return { ...request, systemInstruction: `${request.systemInstruction ?? ''}${name}` };
      },
    });
    const request = await buildRequest('gpt', [step('a'), step('b')], await input({ name: 'x' }));
    expect(order).toEqual(['a', 'b']);
    expect(request).toEqual({ model: 'gpt', contents: [], config: {}, systemInstruction: 'ab' });
  });
});
