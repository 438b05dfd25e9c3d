import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { setup } from '../../../test/helpers';
import { LlmAgent } from '../../agents/llm-agent';
import type { Content } from '../../content';
import type { LlmRequest } from '../../models';
import { FakeModel } from '../../testing/fake-model';
import { FunctionTool } from '../../tools/function-tool';

const STATIC = 'You are the front desk of the Grand Hotel. Prices are in euros.';

/** Calls `lookup` on a user message, answers once the tool's result is in. */
function hotel(instruction: LlmAgent['instruction'], staticInstruction: string | null = STATIC) {
  const model = new FakeModel({
    responses: (request: LlmRequest) => {
      // The instruction may follow the function response: look at the last two contents.
      return request.contents.slice(-2).some((c) => c.parts.some((part) => part.functionResponse))
        ? 'Breakfast is at 7.'
        : { functionCalls: [{ name: 'lookup', args: { topic: 'breakfast' } }] };
    },
  });
  const lookup = new FunctionTool({
    name: 'lookup',
    description: 'Looks up a fact about the hotel.',
    parameters: z.object({ topic: z.string() }),
    execute: ({ topic }) => ({ topic, answer: 'at 7' }),
  });
  const agent = new LlmAgent({
    name: 'concierge',
    model,
    globalInstruction: 'Be brief.',
    ...(staticInstruction === null ? {} : { staticInstruction }),
    instruction,
    tools: [lookup],
  });
  return { model, agent };
}

const texts = (contents: readonly Content[]) =>
  contents.map((content) => `${content.role}:${content.parts.map(describePart).join('+')}`);
const describePart = (part: Content['parts'][number]) =>
  part.text ?? (part.functionCall ? 'call' : part.functionResponse ? 'result' : '?');

describe('an agent with a staticInstruction', () => {
  it('sends a system instruction that never changes and the instruction before the new message', async () => {
    const { model, agent } = hotel('The guest is {user:name}, room {room}.');
    const { run } = await setup(agent, { state: { 'user:name': 'Ada' } });
    await run('When is breakfast?', { stateDelta: { room: 101 } });
    await run('And lunch?', { stateDelta: { room: 102 } });
    const [first, second, third, fourth] = model.requests;
    for (const request of model.requests) {
      expect(request.systemInstruction).toBe(`Be brief.\n\nYou are concierge.\n\n${STATIC}`);
      expect(request.staticInstruction).toBe(request.systemInstruction);
    }
    expect(texts(first!.contents)).toEqual([
      'user:The guest is Ada, room 101.',
      'user:When is breakfast?',
    ]);
    expect(first!.instructionContentIndex).toBe(0);
    // After the function response: the instruction goes last, the response stays in the prefix.
    expect(texts(second!.contents)).toEqual([
      'user:When is breakfast?',
      'model:call',
      'user:result',
      'user:The guest is Ada, room 101.',
    ]);
    expect(second!.instructionContentIndex).toBe(3);
    expect(texts(third!.contents).slice(-2)).toEqual([
      'user:The guest is Ada, room 102.',
      'user:And lunch?',
    ]);
    expect(texts(fourth!.contents).at(-1)).toBe('user:The guest is Ada, room 102.');
  });

  it('keeps everything before the instruction a prefix of the next request', async () => {
    const { model, agent } = hotel((ctx) => `Visit ${String(ctx.state.get('visit'))}.`);
    const { run } = await setup(agent);
    for (let visit = 1; visit <= 4; visit++)
      await run(`Question ${visit}`, { stateDelta: { visit } });
    const requests = model.requests;
    expect(requests).toHaveLength(8);
    for (let index = 1; index < requests.length; index++) {
      const before = requests[index - 1]!;
      const stable = before.contents.slice(0, before.instructionContentIndex);
      expect(requests[index]!.contents.slice(0, stable.length)).toEqual(stable);
      expect(requests[index]!.systemInstruction).toBe(before.systemInstruction);
      expect(requests[index]!.config.tools).toEqual(before.config.tools);
    }
  });

  it('never stores the instruction in the session', async () => {
    const { agent } = hotel('Room {room}.');
    const { run, session } = await setup(agent);
    await run('When is breakfast?', { stateDelta: { room: 7 } });
    const stored = (await session()).events.flatMap((event) => event.content?.parts ?? []);
    expect(stored.some((part) => part.text?.includes('Room 7'))).toBe(false);
  });

  it('leaves an agent without one as before: its instruction ends the system instruction', async () => {
    const { model, agent } = hotel('Room {room}.', null);
    const { run } = await setup(agent);
    await run('When is breakfast?', { stateDelta: { room: 7 } });
    const request = model.requests[0]!;
    expect(request.systemInstruction).toBe('Be brief.\n\nYou are concierge.\n\nRoom 7.');
    expect(request.instructionContentIndex).toBeUndefined();
    expect(texts(request.contents)).toEqual(['user:When is breakfast?']);
  });
});
