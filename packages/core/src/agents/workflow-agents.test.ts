import { describe, expect, it } from 'vitest';

import { getText, modelContent, userContent, type Content } from '../content';
import { InvalidArgumentError } from '../errors';
import { createEvent, type Event } from '../events';
import { buildContents } from '../history/index';
import { InMemorySessionService } from '../sessions';
import { BaseAgent } from './base-agent';
import { InvocationContext } from '../invocation/invocation-context';
import { LoopAgent } from './loop-agent';
import { ParallelAgent } from './parallel-agent';
import { SequentialAgent } from './sequential-agent';

/** A promise resolved from outside: lets agents wait on each other instead of on time. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

type Step =
  string | { wait: Promise<void> } | { signal: () => void } | { escalate: string } | 'look';

/** A custom agent: subclasses BaseAgent and yields the events of a script. */
class ScriptAgent extends BaseAgent {
  readonly seen: Content[][] = [];
  runs = 0;
  constructor(
    name: string,
    private readonly script: Step[],
  ) {
    super({ name });
  }
  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    this.runs++;
    for (const step of this.script) {
      if (step === 'look') {
        this.seen.push(
          buildContents(ctx.session.events, { agentName: this.name, branch: ctx.branch }),
        );
      } else if (typeof step === 'string') {
        yield this.createEvent(ctx, modelContent(step));
      } else if ('wait' in step) {
        await step.wait;
      } else if ('signal' in step) {
        step.signal();
      } else {
        const event = this.createEvent(ctx, modelContent(step.escalate));
        event.actions.escalate = true;
        yield event;
      }
    }
  }
}

/** Run an agent the way the Runner does: store every event before resuming the agent. */
async function drive(agent: BaseAgent): Promise<Event[]> {
  const sessionService = new InMemorySessionService();
  const session = await sessionService.createSession({ appName: 'app', userId: 'u' });
  const user = createEvent({ invocationId: 'inv', author: 'user', content: userContent('go') });
  await sessionService.appendEvent({ session, event: user });
  const ctx = new InvocationContext({
    invocationId: 'inv',
    agent,
    session,
    sessionService,
    userContent: user.content,
  });
  const events: Event[] = [];
  for await (const event of agent.run(ctx)) {
    await sessionService.appendEvent({ session, event });
    events.push(event);
  }
  return events;
}

const texts = (events: Event[]): string[] => events.map((event) => getText(event.content));
const seenTexts = (contents: Content[]): string[] =>
  contents.map((content) => content.parts.map((part) => part.text).join(' '));

describe('SequentialAgent', () => {
  it('runs sub-agents in order, each seeing the previous ones as context', async () => {
    const first = new ScriptAgent('first', ['draft']);
    const second = new ScriptAgent('second', ['look', 'review']);
    const events = await drive(new SequentialAgent({ name: 'seq', subAgents: [first, second] }));
    expect(events.map((e) => `${e.author}:${getText(e.content)}`)).toEqual([
      'first:draft',
      'second:review',
    ]);
    expect(seenTexts(second.seen[0] ?? [])).toEqual(['go', 'For context: [first] said: draft']);
  });
});

describe('ParallelAgent', () => {
  it('interleaves concurrent branches and isolates them from each other', async () => {
    const aStored = deferred();
    const bStored = deferred();
    const a = new ScriptAgent('a', [
      'a1',
      { signal: aStored.resolve },
      { wait: bStored.promise },
      'look',
      'a2',
    ]);
    const b = new ScriptAgent('b', [
      { wait: aStored.promise },
      'b1',
      { signal: bStored.resolve },
      'look',
      'b2',
    ]);
    const after = new ScriptAgent('after', ['look', 'done']);
    const par = new ParallelAgent({ name: 'par', subAgents: [a, b] });
    const events = await drive(new SequentialAgent({ name: 'root', subAgents: [par, after] }));

    // a1 came before b1 and a2 after it: both branches were running at the same time.
    expect(texts(events).indexOf('a1')).toBeLessThan(texts(events).indexOf('b1'));
    expect(texts(events).indexOf('b1')).toBeLessThan(texts(events).indexOf('a2'));
    expect(events.filter((e) => e.author === 'a').map((e) => e.branch)).toEqual(['par.a', 'par.a']);
    expect(events.filter((e) => e.author === 'b').map((e) => e.branch)).toEqual(['par.b', 'par.b']);
    // Each branch saw its own events only, though the sibling's were already stored.
    expect(seenTexts(a.seen[0] ?? [])).toEqual(['go', 'a1']);
    expect(seenTexts(b.seen[0] ?? [])).toEqual(['go', 'b1']);
    // The main line after the parallel agent sees every branch.
    expect(seenTexts(after.seen[0] ?? []).sort()).toEqual(
      ['go', ...['a1', 'a2', 'b1', 'b2'].map((t) => `For context: [${t[0]}] said: ${t}`)].sort(),
    );
  });

  it('nests branches: a sequence inside a branch shares the branch and sees its ancestors', async () => {
    const first = new ScriptAgent('first', ['one']);
    const second = new ScriptAgent('second', ['look', 'two']);
    const other = new ScriptAgent('other', ['secret']);
    const inner = new ParallelAgent({
      name: 'inner',
      subAgents: [new ScriptAgent('deep', ['look', 'x'])],
    });
    const seq = new SequentialAgent({ name: 'seq', subAgents: [first, second, inner] });
    const events = await drive(new ParallelAgent({ name: 'par', subAgents: [seq, other] }));
    expect(events.find((e) => e.author === 'second')?.branch).toBe('par.seq');
    expect(events.find((e) => e.author === 'deep')?.branch).toBe('par.seq.inner.deep');
    expect(seenTexts(second.seen[0] ?? [])).toEqual(['go', 'For context: [first] said: one']);
    const deep = inner.subAgents[0] as ScriptAgent;
    expect(seenTexts(deep.seen[0] ?? [])).toEqual([
      'go',
      'For context: [first] said: one',
      'For context: [second] said: two',
    ]);
  });

  it('propagates a branch failure', async () => {
    class Failing extends BaseAgent {
      // eslint-disable-next-line require-yield
      protected async *runImpl(): AsyncGenerator<Event, void> {
        throw new RangeError('branch broke');
      }
    }
    const par = new ParallelAgent({
      name: 'par',
      subAgents: [new Failing({ name: 'bad' }), new ScriptAgent('ok', ['fine'])],
    });
    await expect(drive(par)).rejects.toThrow('branch broke');
  });
});

describe('LoopAgent', () => {
  it('stops after maxIterations passes', async () => {
    const a = new ScriptAgent('a', ['tick']);
    const b = new ScriptAgent('b', ['tock']);
    const events = await drive(
      new LoopAgent({ name: 'loop', maxIterations: 3, subAgents: [a, b] }),
    );
    expect(texts(events)).toEqual(['tick', 'tock', 'tick', 'tock', 'tick', 'tock']);
  });

  it('stops when a sub-agent escalates, skipping the rest of the pass', async () => {
    let pass = 0;
    class Checker extends BaseAgent {
      protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
        pass++;
        const event = this.createEvent(ctx, modelContent(`check ${pass}`));
        if (pass === 2) event.actions.escalate = true;
        yield event;
      }
    }
    const after = new ScriptAgent('after', ['never']);
    const events = await drive(
      new LoopAgent({
        name: 'loop',
        maxIterations: 10,
        subAgents: [new ScriptAgent('work', ['w']), new Checker({ name: 'check' }), after],
      }),
    );
    expect(texts(events)).toEqual(['w', 'check 1', 'never', 'w', 'check 2']);
    expect(after.runs).toBe(1);
  });

  it('rejects a non-positive maxIterations', () => {
    expect(() => new LoopAgent({ name: 'loop', maxIterations: 0 })).toThrow(InvalidArgumentError);
  });
});
