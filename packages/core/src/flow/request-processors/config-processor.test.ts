import { describe, expect, it } from 'vitest';

import { empty, input, frozen } from '../../../test/processor-helpers';
import { configProcessor } from './config-processor';

describe('configProcessor', () => {
  it("merges the agent's config with the run's overrides, key by key", async () => {
    const request = await configProcessor.process(
      frozen(empty()),
      await input(
        { name: 'a', generateContentConfig: { temperature: 0.7, maxOutputTokens: 100 } },
        { runConfig: { generateContentConfig: { temperature: 0.1, seed: 3 } } },
      ),
    );
    expect(request.config).toEqual({ temperature: 0.1, maxOutputTokens: 100, seed: 3 });
  });
});
