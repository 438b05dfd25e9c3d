import { describe, expect, it } from 'vitest';

import { input } from '../../../test/processor-helpers';
import type { LlmRequest } from '../../models';
import { buildRequest, buildRequestNow } from './default-processors';

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

  it('answers synchronously while every processor does, and in order when one is async', async () => {
    const order: string[] = [];
    const sync = (name: string) => ({
      name,
      process: (request: LlmRequest) => {
        order.push(name);
        return { ...request, systemInstruction: `${request.systemInstruction ?? ''}${name}` };
      },
    });
    const async = (name: string) => ({
      name,
      process: async (request: LlmRequest) => sync(name).process(request),
    });
    const context = await input({ name: 'x' });

    const now = buildRequestNow('gpt', [sync('a'), sync('b')], context);
    expect(now).not.toBeInstanceOf(Promise);
    expect((now as LlmRequest).systemInstruction).toBe('ab');

    order.length = 0;
    const later = buildRequestNow('gpt', [sync('a'), async('b'), sync('c')], context);
    expect(later).toBeInstanceOf(Promise);
    expect((await later).systemInstruction).toBe('abc');
    expect(order).toEqual(['a', 'b', 'c']);
  });
});
