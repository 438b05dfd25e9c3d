import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { LlmAgent } from '../agents/llm-agent';
import { getText, userContent } from '../content';
import { InvocationNotFoundError } from '../errors/invocation-not-found-error';
import type { Event } from '../events';
import { withoutRewoundEvents } from '../history/rewound-events';
import { Runner } from '../runner/runner';
import { FunctionTool } from '../tools/function-tool';
import { caught, type ConformanceContext } from './session-conformance-context';
import { FakeModel } from './fake-model';
import { fakeFunctionCall } from './fake-model-responses';

async function drain(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** `Runner.rewind` on this store: one appended event restores state and hides the rewound turns. */
export function defineRewindTests(ctx: ConformanceContext): void {
  describe('rewind', () => {
    it('rewinds state, contents and routing to before an invocation, across a restart', async () => {
      const setColor = new FunctionTool({
        name: 'set_color',
        description: 'Remember the color.',
        parameters: z.object({ color: z.string() }),
        execute: ({ color }, tool) => {
          tool.state.update({ color, [`seen_${color}`]: true, 'user:last': color });
          return { ok: true };
        },
      });
      // Each turn: the tool call, then a text answer.
      const model = new FakeModel({
        responses: (request, index) => {
          if (index % 2 === 1) return `done ${index}`;
          const said = getText(request.contents.at(-1));
          return fakeFunctionCall('set_color', { color: said }, `c${index}`);
        },
      });
      const agent = new LlmAgent({ name: 'painter', model, tools: [setColor] });
      const runner = () => new Runner({ appName: ctx.appName, agent, sessionService: ctx.service });
      const session = await ctx.session({ state: { tenant: 'acme' } });
      const turn = { userId: session.userId, sessionId: session.id };
      const first = await drain(runner().run({ ...turn, newMessage: userContent('red') }));
      const second = await drain(runner().run({ ...turn, newMessage: userContent('blue') }));
      await drain(runner().run({ ...turn, newMessage: userContent('green') }));
      expect((await ctx.reload(session)).state).toMatchObject({
        color: 'green',
        seen_blue: true,
        seen_green: true,
      });

      const rewind = await runner().rewind({
        ...turn,
        rewindBeforeInvocationId: second[0]!.invocationId,
      });
      expect(rewind.actions.rewindBeforeInvocationId).toBe(second[0]!.invocationId);
      expect(rewind.invocationId).not.toBe(first[0]!.invocationId);

      // Read back from the store, as another process would.
      const stored = await ctx.reload(session);
      expect(stored.state).toEqual({
        tenant: 'acme',
        color: 'red',
        seen_red: true,
        seen_blue: null,
        seen_green: null,
        // Shared with the user's other sessions: not rewound.
        'user:last': 'green',
      });
      expect(stored.events.at(-1)?.actions.rewindBeforeInvocationId).toBe(second[0]!.invocationId);
      // What is left: the first turn (the user's message, the call, its response, the answer).
      expect(withoutRewoundEvents(stored.events).map((event) => event.invocationId)).toEqual(
        Array<string>(4).fill(first[0]!.invocationId),
      );

      // The next turn: the model sees the first turn and the new message, nothing rewound.
      const before = model.requests.length;
      await drain(runner().run({ ...turn, newMessage: userContent('yellow') }));
      const texts = model.requests[before]!.contents.map(
        (content) => getText(content) || Object.keys(content.parts[0] ?? {})[0],
      );
      expect(texts).toEqual(['red', 'functionCall', 'functionResponse', 'done 1', 'yellow']);
      expect((await ctx.reload(session)).state).toMatchObject({ color: 'yellow', seen_red: true });

      // An invocation the session never had is refused, and nothing is written.
      const count = (await ctx.reload(session)).events.length;
      const error = await caught(() =>
        runner().rewind({ ...turn, rewindBeforeInvocationId: 'no-such-invocation' }),
      );
      expect(InvocationNotFoundError.isInstance(error)).toBe(true);
      expect((await ctx.reload(session)).events).toHaveLength(count);
    });

    it('rewinds a rewind: an earlier target hides the later rewind too', async () => {
      const model = new FakeModel({ responses: (_request, index) => `answer ${index}` });
      const agent = new LlmAgent({ name: 'echo', model });
      const runner = new Runner({ appName: ctx.appName, agent, sessionService: ctx.service });
      const session = await ctx.session();
      const turn = { userId: session.userId, sessionId: session.id };
      const one = await drain(runner.run({ ...turn, newMessage: userContent('one') }));
      const two = await drain(runner.run({ ...turn, newMessage: userContent('two') }));
      await runner.rewind({ ...turn, rewindBeforeInvocationId: two[0]!.invocationId });
      await drain(runner.run({ ...turn, newMessage: userContent('three') }));
      await runner.rewind({ ...turn, rewindBeforeInvocationId: one[0]!.invocationId });
      const stored = await ctx.reload(session);
      expect(withoutRewoundEvents(stored.events)).toEqual([]);
      const before = model.requests.length;
      await drain(runner.run({ ...turn, newMessage: userContent('four') }));
      expect(model.requests[before]!.contents.map((content) => getText(content))).toEqual(['four']);
    });
  });
}
