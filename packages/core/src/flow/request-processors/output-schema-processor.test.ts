import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { empty, input, frozen } from '../../../test/processor-helpers';
import { outputSchemaProcessor } from './output-schema-processor';

describe('outputSchemaProcessor', () => {
  it('asks for JSON following the schema', async () => {
    const request = await outputSchemaProcessor.process(
      frozen(empty()),
      await input({ name: 'a', outputSchema: z.object({ ok: z.boolean() }) }),
    );
    expect(request.config.responseMimeType).toBe('application/json');
    expect(request.config.responseSchema).toMatchObject({
      type: 'object',
      properties: { ok: { type: 'boolean' } },
    });
    expect(request.systemInstruction).toContain('Reply with valid JSON');
  });
});
