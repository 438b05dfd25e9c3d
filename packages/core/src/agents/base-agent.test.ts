import { describe, expect, it } from 'vitest';

import { collect, makeContext } from '../../test/helpers';
import { modelContent } from '../content';
import { subscribe } from '../diagnostics/channels';
import { AgentTreeError } from '../errors/agent-tree-error';
import { InvalidArgumentError } from '../errors/invalid-argument-error';
import type { Event } from '../events';
import { BaseAgent } from './base-agent';
import type { InvocationContext } from '../invocation/invocation-context';

class Speaker extends BaseAgent {
  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    yield this.createEvent(ctx, modelContent(`${this.name} speaking`));
  }
}

/** Runs its sub-agents one after the other. */
class Chain extends BaseAgent {
  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    for (const sub of this.subAgents) yield* sub.run(ctx);
  }
}

describe('BaseAgent tree', () => {
  it('links parents, finds agents and the root', () => {
    const leaf = new Speaker({ name: 'leaf' });
    const middle = new Chain({ name: 'middle', subAgents: [leaf] });
    const root = new Chain({ name: 'root', description: 'the root', subAgents: [middle] });
    expect(leaf.parentAgent).toBe(middle);
    expect(leaf.rootAgent).toBe(root);
    expect(root.rootAgent).toBe(root);
    expect(root.findAgent('leaf')).toBe(leaf);
    expect(root.findAgent('root')).toBe(root);
    expect(middle.findAgent('root')).toBeUndefined();
    expect(root.description).toBe('the root');
  });

  it.each(['', '1abc', 'has space', 'dash-name', 'user'])('rejects the name %j', (name) => {
    expect(() => new Speaker({ name })).toThrow(InvalidArgumentError);
  });

  it('refuses a second parent', () => {
    const shared = new Speaker({ name: 'shared' });
    new Chain({ name: 'first', subAgents: [shared] });
    const error = (() => {
      try {
        new Chain({ name: 'second', subAgents: [shared] });
      } catch (e) {
        return e;
      }
    })();
    expect(AgentTreeError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('"first"');
    expect(shared.parentAgent?.name).toBe('first');
  });

  it('refuses the same agent twice and duplicate names anywhere in the tree', () => {
    const a = new Speaker({ name: 'a' });
    expect(() => new Chain({ name: 'p', subAgents: [a, a] })).toThrow(AgentTreeError);
    expect(a.parentAgent).toBeUndefined();
    const deep = new Chain({ name: 'group', subAgents: [new Speaker({ name: 'twin' })] });
    expect(
      () => new Chain({ name: 'root', subAgents: [deep, new Speaker({ name: 'twin' })] }),
    ).toThrow(/named "twin"/);
    expect(
      () => new Chain({ name: 'group2', subAgents: [new Speaker({ name: 'group2' })] }),
    ).toThrow(AgentTreeError);
  });
});

describe('BaseAgent.run', () => {
  it('runs sub-agents in child contexts that share the invocation', async () => {
    const root = new Chain({
      name: 'root',
      subAgents: [new Speaker({ name: 'one' }), new Speaker({ name: 'two' })],
    });
    const ctx = await makeContext(root);
    const events = await collect(root.run(ctx));
    expect(events.map((e) => [e.author, e.invocationId])).toEqual([
      ['one', 'e-test'],
      ['two', 'e-test'],
    ]);
  });

  it('publishes agent spans nested under their parent', async () => {
    const starts: { spanId: string; parentSpanId: string | undefined; agentName: string }[] = [];
    const ends: string[] = [];
    const stopStart = subscribe('agentStart', (m) => starts.push(m));
    const stopEnd = subscribe('agentEnd', (m) => ends.push(m.spanId));
    try {
      const root = new Chain({ name: 'root', subAgents: [new Speaker({ name: 'child' })] });
      const ctx = await makeContext(root);
      await collect(root.run(ctx.createChild({ agent: root })));
      expect(starts.map((s) => s.agentName)).toEqual(['root', 'child']);
      expect(starts[0]!.parentSpanId).toBe(ctx.spanId);
      expect(starts[1]!.parentSpanId).toBe(starts[0]!.spanId);
      expect(ends).toEqual([starts[1]!.spanId, starts[0]!.spanId]);
    } finally {
      stopStart();
      stopEnd();
    }
  });

  it('stops other agents once the invocation is ended', async () => {
    class Stopper extends BaseAgent {
      protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
        ctx.endInvocation = true;
        yield this.createEvent(ctx, modelContent('stop'));
      }
    }
    const root = new Chain({
      name: 'root',
      subAgents: [new Stopper({ name: 'stopper' }), new Speaker({ name: 'after' })],
    });
    // The chain itself checks nothing: the second agent's run sees the shared flag and yields nothing.
    const events = await collect(root.run(await makeContext(root)));
    expect(events.map((e) => e.author)).toEqual(['stopper']);
  });
});

describe('BaseAgent.run without lifecycle work', () => {
  /** Records the events and the agent diagnostics of a run of `root`. */
  async function runWith(subscribed: boolean, ending = false) {
    const leaf = new Speaker({ name: 'leaf' });
    const root = new Chain({ name: 'root', subAgents: [leaf] });
    const ctx = await makeContext(root);
    ctx.endInvocation = ending;
    const seen: string[] = [];
    const stops = subscribed
      ? (['agentStart', 'agentEnd'] as const).map((key) =>
          subscribe(key, (message) => seen.push(`${key} ${String(message.spanId)}`)),
        )
      : [];
    try {
      const events = await collect(root.run(ctx));
      return { texts: events.map((event) => event.content?.parts[0]?.text), seen };
    } finally {
      for (const stop of stops) stop();
    }
  }

  it('runs the agent itself, with the same events as with a diagnostics subscriber', async () => {
    const plain = await runWith(false);
    const observed = await runWith(true);
    expect(plain.texts).toEqual(['leaf speaking']);
    expect(observed.texts).toEqual(plain.texts);
    expect(plain.seen).toEqual([]);
    // With a subscriber, both agents publish their span start and end.
    expect(observed.seen).toHaveLength(4);
  });

  it('runs nothing in an invocation that has ended, either way', async () => {
    expect((await runWith(false, true)).texts).toEqual([]);
    expect((await runWith(true, true)).texts).toEqual([]);
  });
});
