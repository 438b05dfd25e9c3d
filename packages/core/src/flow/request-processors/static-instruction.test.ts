import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { setup } from '../../../test/helpers';
import { LlmAgent } from '../../agents/llm-agent';
import type { LlmRequest } from '../../models';
import { FakeModel } from '../../testing/fake-model';
import { FunctionTool } from '../../tools/function-tool';
import type { Tool } from '../../tools/tool';

/** A root with a sub-agent (a transfer block) and a tool, its instruction templated on state. */
function tree(instruction: LlmAgent['instruction'], extraTools: Tool[] = []) {
  const model = new FakeModel({ responses: () => 'ok' });
  const lookup = new FunctionTool({
    name: 'lookup',
    description: 'Looks things up.',
    parameters: z.object({ q: z.string() }),
    execute: () => ({ found: true }),
  });
  const root = new LlmAgent({
    name: 'concierge',
    description: 'Front desk.',
    model,
    globalInstruction: 'Be brief.',
    instruction,
    tools: [lookup, ...extraTools],
    subAgents: [new LlmAgent({ name: 'billing', description: 'Handles invoices.', model })],
  });
  return { model, root };
}

function staticOf(request: LlmRequest | undefined): string {
  expect(request?.staticInstruction).toBeDefined();
  expect(request!.systemInstruction!.startsWith(request!.staticInstruction!)).toBe(true);
  return request!.staticInstruction!;
}

describe('the static part of the system instruction is a stable prefix', () => {
  it('stays byte-identical across turns while the state in the instruction changes', async () => {
    const { model, root } = tree('The guest is in a {mood} mood.');
    const { run } = await setup(root);
    for (const mood of ['calm', 'grumpy', 'cheerful']) {
      await run('hello', { stateDelta: { mood } });
    }
    const [first, second, third] = model.requests;
    const prefix = staticOf(first);
    expect(staticOf(second)).toBe(prefix);
    expect(staticOf(third)).toBe(prefix);
    // Global instruction, identity and the transfer block are in it; the templated text is not.
    expect(prefix.startsWith('Be brief.\n\nYou are concierge. Front desk.')).toBe(true);
    expect(prefix).toContain('- billing: Handles invoices.');
    expect(prefix).not.toContain('mood');
    expect(first!.systemInstruction).toBe(`${prefix}\n\nThe guest is in a calm mood.`);
    expect(third!.systemInstruction).toBe(`${prefix}\n\nThe guest is in a cheerful mood.`);
  });

  it('keeps an instruction function and text added by tools after the prefix', async () => {
    let turn = 0;
    const notes: Tool = {
      name: 'notes',
      description: 'Adds the latest notes.',
      declaration: () => undefined,
      run: async () => undefined,
      processRequest: (_context, request) => {
        request.systemInstruction = `${request.systemInstruction}\n\nNotes #${turn}.`;
      },
    };
    const { model, root } = tree(() => `Turn ${++turn}.`, [notes]);
    const { run } = await setup(root);
    await run('a');
    await run('b');
    const [first, second] = model.requests;
    expect(staticOf(first)).toBe(staticOf(second));
    expect(first!.systemInstruction!.slice(staticOf(first).length)).toBe(
      '\n\nTurn 1.\n\nNotes #1.',
    );
    expect(second!.systemInstruction!.slice(staticOf(second).length)).toBe(
      '\n\nTurn 2.\n\nNotes #2.',
    );
  });

  it('treats a plain instruction, and braces that hold no placeholder, as static', async () => {
    const { model, root } = tree('Reply as {"answer": "..."}.');
    const { run } = await setup(root);
    await run('q');
    expect(model.requests[0]!.staticInstruction).toBe(model.requests[0]!.systemInstruction);
  });
});
