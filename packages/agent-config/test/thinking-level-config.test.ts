import { describe, expect, it } from 'vitest';

import { generateContentConfigOf } from '../src/generate-content-config';

const fail = (key: string, problem: string): never => {
  throw new Error(`${key}: ${problem}`);
};

describe('thinking_config in generate_content_config', () => {
  it('takes the thinking level, in snake_case or camelCase, next to the budget', () => {
    expect(
      generateContentConfigOf(
        { thinking_config: { include_thoughts: true, thinking_level: 'HIGH' } },
        fail,
      ).thinkingConfig,
    ).toEqual({ includeThoughts: true, thinkingLevel: 'HIGH' });
    expect(
      generateContentConfigOf(
        { thinkingConfig: { thinkingLevel: 'LOW', thinkingBudget: 512 } },
        fail,
      ).thinkingConfig,
    ).toEqual({ thinkingBudget: 512, thinkingLevel: 'LOW' });
  });
});
