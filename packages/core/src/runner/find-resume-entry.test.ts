import { describe, expect, it } from 'vitest';

import { BaseAgent } from '../agents/base-agent';
import type { InvocationContext } from '../invocation/invocation-context';
import { SequentialAgent } from '../agents/sequential-agent';
import { RESUMES_SUB_AGENTS } from '../agents/workflow-resume';
import type { Event } from '../events';
import { findResumeEntry } from './find-agent-to-run';

class Leaf extends BaseAgent {
  protected async *runImpl(_ctx: InvocationContext): AsyncGenerator<Event, void> {}
}

class Graph extends BaseAgent {
  readonly [RESUMES_SUB_AGENTS] = true;
  protected async *runImpl(_ctx: InvocationContext): AsyncGenerator<Event, void> {}
}

class Plain extends BaseAgent {
  protected async *runImpl(_ctx: InvocationContext): AsyncGenerator<Event, void> {}
}

describe('findResumeEntry', () => {
  it('climbs agents marked RESUMES_SUB_AGENTS like Sequential agents', () => {
    const caller = new Leaf({ name: 'caller' });
    const graph = new Graph({ name: 'graph', subAgents: [caller] });
    const root = new SequentialAgent({ name: 'root', subAgents: [graph] });
    expect(findResumeEntry(caller)).toBe(root);
  });

  it('stops at a parent without the mark', () => {
    const caller = new Leaf({ name: 'caller' });
    new Plain({ name: 'plain', subAgents: [caller] });
    expect(findResumeEntry(caller)).toBe(caller);
  });
});
