import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { LlmAgent } from '../agents/llm-agent';
import type { Content } from '../content';
import type { LlmRequest } from '../models';
import { Runner } from '../runner/runner';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import type { Tool } from '../tools/tool';

/**
 * Request contents are frozen and shared between model calls (they are built incrementally). Code
 * that the contract allows to change a request in place gets its own copies first.
 */
describe('request contents: copy-on-write', () => {
  const texts = (contents: readonly Content[]): string[] =>
    contents.flatMap((content) => content.parts.map((part) => part.text ?? '<call or response>'));

  async function runTurns(agent: LlmAgent, turns: number): Promise<void> {
    const runner = new Runner({ appName: 'cow', agent, autoCreateSession: true });
    for (let turn = 0; turn < turns; turn++) {
      const newMessage = { role: 'user', parts: [{ text: `question ${turn}` }] };
      for await (const _ of runner.run({ userId: 'u', sessionId: 's', newMessage })) void _;
    }
  }

  it('a beforeModel callback edits the request in place without touching later requests', async () => {
    const model = new FakeModel({ responses: (_request, index) => `answer ${index}` });
    const agent = new LlmAgent({
      name: 'bot',
      model,
      beforeModelCallback: ({ request }) => {
        for (const content of request.contents) {
          for (const part of content.parts) if (part.text) part.text = part.text.toUpperCase();
          content.parts.push({ text: '(edited)' });
        }
        return undefined;
      },
    });
    await runTurns(agent, 20);
    const last = model.requests[model.requests.length - 1] as LlmRequest;
    // Each request was edited once: earlier edits never leak into the shared history.
    expect(texts(last.contents).slice(0, 4)).toEqual([
      'QUESTION 0',
      '(edited)',
      'ANSWER 0',
      '(edited)',
    ]);
    expect(texts(last.contents).filter((text) => text === '(edited)')).toHaveLength(39);
  });

  it('tools’ request hooks get copies they may change; models get frozen contents', async () => {
    const seen: LlmRequest[] = [];
    const hooked: Tool = {
      name: 'noop',
      description: 'does nothing',
      isLongRunning: false,
      declaration: () => ({ name: 'noop', description: 'does nothing' }),
      run: async () => ({ ok: true }),
      processRequest: (_context, request) => {
        for (const content of request.contents) content.parts.push({ text: '(hook)' });
      },
    };
    const tool = new FunctionTool({
      name: 'lookup',
      description: 'looks up',
      parameters: z.object({}),
      execute: () => ({ found: true }),
    });
    const model = new FakeModel({
      responses: (request, index) => {
        seen.push(request);
        return index % 2 === 0 ? fakeFunctionCall('lookup', {}) : `answer ${index}`;
      },
    });
    await runTurns(new LlmAgent({ name: 'bot', model, tools: [tool, hooked] }), 15);
    const hookedRequest = seen[seen.length - 1] as LlmRequest;
    // One mark per content: the hook's edits of earlier requests did not stay in the history.
    expect(texts(hookedRequest.contents).filter((text) => text === '(hook)')).toHaveLength(
      hookedRequest.contents.length,
    );

    seen.length = 0;
    await runTurns(new LlmAgent({ name: 'bot', model, tools: [tool] }), 15);
    const plain = seen[seen.length - 1] as LlmRequest;
    expect(plain.contents.length).toBeGreaterThan(24);
    expect(plain.contents.every((content) => Object.isFrozen(content))).toBe(true);
    expect(() => {
      (plain.contents[0] as Content).parts.push({ text: 'x' });
    }).toThrow(TypeError);
  });
});
