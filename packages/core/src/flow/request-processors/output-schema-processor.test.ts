import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { empty, input, frozen } from '../../../test/processor-helpers';
import type { LlmAgent } from '../../agents/llm-agent';
import {
  SET_MODEL_RESPONSE_INSTRUCTION,
  setModelResponseToolFor,
} from '../set-model-response-tool';
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

  it('asks for set_model_response instead when the step offers it', async () => {
    const base = await input({ name: 'a', outputSchema: z.object({ ok: z.boolean() }) });
    const tool = setModelResponseToolFor(base.agent as LlmAgent);
    const request = await outputSchemaProcessor.process(frozen(empty()), {
      ...base,
      tools: [tool],
    });
    expect(request.config.responseMimeType).toBeUndefined();
    expect(request.config.responseSchema).toBeUndefined();
    expect(request.systemInstruction).toBe(SET_MODEL_RESPONSE_INSTRUCTION);
  });
});
