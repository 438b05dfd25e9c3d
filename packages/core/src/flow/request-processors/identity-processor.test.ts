import { describe, expect, it } from 'vitest';

import { empty, input, frozen } from '../../../test/processor-helpers';
import { identityProcessor } from './identity-processor';

describe('identityProcessor', () => {
  it('adds the name and description', async () => {
    const request = await identityProcessor.process(
      frozen(empty()),
      await input({ name: 'helper', description: 'Helps people.' }),
    );
    expect(request.systemInstruction).toBe('You are helper. Helps people.');
  });
});
