// A provider with a classic bug: it maps the API's `length` finish reason to STOP. The suite must
// fail on it (run by provider-conformance-catches.test.ts in a child vitest process).
import type { LlmResponse, Model } from '../../models';
import { modelProviderConformance } from '../vitest';

modelProviderConformance('length mapped to STOP', {
  createBackend(script) {
    let call = 0;
    const model: Model = {
      name: 'buggy',
      async *generate(_request, { stream }): AsyncGenerator<LlmResponse, void> {
        const reply = script[call++];
        if (reply?.type !== 'text') throw new Error('this fixture only answers text');
        if (stream) {
          for (const chunk of reply.chunks)
            yield { content: { role: 'model', parts: [{ text: chunk }] }, partial: true };
        }
        // the bug: every answer ends with STOP, even one cut by the token limit
        yield { content: { role: 'model', parts: [{ text: reply.text }] }, finishReason: 'STOP' };
      },
    };
    return { model, requests: () => [] };
  },
});
