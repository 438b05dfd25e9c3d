/**
 * Per-node overhead of `@adk/workflow` against the same pipeline written by hand as a custom
 * agent, both under the Runner with in-memory sessions: a 20-node chain of function nodes and a
 * 10-way fan-out joined then finished (12 nodes). Each turn runs on a fresh session; the figure is
 * the median over batches of the turn's wall time divided by the number of nodes, in µs.
 */
import {
  BaseAgent,
  createEvent,
  InMemorySessionService,
  Runner,
  userContent,
  type Event,
  type InvocationContext,
} from '@adk/core';
import { functionNode, JoinNode, START, Workflow, type BaseNode } from '@adk/workflow';

import type { BenchRow } from './report/row';

const CHAIN = 20;
const FAN = 10;

const step = (n: number) => n + 1;

function chainWorkflow(): Workflow {
  const nodes = Array.from({ length: CHAIN }, (_, i) =>
    functionNode({ name: `n${i}`, run: (n: unknown) => step(typeof n === 'number' ? n : 0) }),
  );
  return new Workflow({ name: 'chain', edges: [[START, ...nodes]] });
}

function fanWorkflow(): Workflow {
  const branches = Array.from({ length: FAN }, (_, i) =>
    functionNode({ name: `b${i}`, run: () => i }),
  );
  const join = new JoinNode({ name: 'join' });
  const total = functionNode({
    name: 'total',
    run: (input: Record<string, number>) => Object.values(input).reduce((a, b) => a + b, 0),
  });
  return new Workflow({ name: 'fan', edges: [[START, branches as BaseNode[], join, total]] });
}

/** The chain by hand: each step computed, one event per step carrying its output. */
class HandChain extends BaseAgent {
  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    let value = 0;
    for (let i = 0; i < CHAIN; i++) {
      value = step(value);
      yield createEvent({
        invocationId: ctx.invocationId,
        author: this.name,
        customMetadata: { node: `n${i}`, output: value },
      });
    }
    yield createEvent({
      invocationId: ctx.invocationId,
      author: this.name,
      customMetadata: { output: value },
    });
  }
}

/** The fan-out by hand: the branches concurrently, one event each, then the join and the total. */
class HandFan extends BaseAgent {
  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    const outputs = await Promise.all(Array.from({ length: FAN }, async (_, i) => i));
    for (const [i, output] of outputs.entries()) {
      yield createEvent({
        invocationId: ctx.invocationId,
        author: this.name,
        customMetadata: { node: `b${i}`, output },
      });
    }
    const joined = Object.fromEntries(outputs.map((output, i) => [`b${i}`, output]));
    yield createEvent({
      invocationId: ctx.invocationId,
      author: this.name,
      customMetadata: { node: 'join', output: joined },
    });
    const total = outputs.reduce((a, b) => a + b, 0);
    yield createEvent({
      invocationId: ctx.invocationId,
      author: this.name,
      customMetadata: { node: 'total', output: total },
    });
  }
}

/** A runner over `agent` and a function running one turn on a fresh session. */
function turnOf(agent: BaseAgent): () => Promise<void> {
  const runner = new Runner({
    appName: 'bench',
    agent,
    sessionService: new InMemorySessionService({ packIdleSessionsAfterMs: false }),
    autoCreateSession: true,
  });
  let session = 0;
  return async () => {
    for await (const _ of runner.run({
      userId: 'u',
      sessionId: `s${session++}`,
      newMessage: userContent('go'),
    }));
  };
}

interface Figures {
  wall: number[];
  cpu: number[];
}

/** Batches of `turns` turns, per node, in µs of wall and of CPU time. */
async function batch(turn: () => Promise<void>, turns: number, nodes: number, into: Figures) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < turns; i++) await turn();
  const wall = (performance.now() - started) * 1000;
  const used = process.cpuUsage(cpu);
  into.wall.push(wall / turns / nodes);
  into.cpu.push((used.user + used.system) / turns / nodes);
}

/** The workflow and the hand-written agent, batches interleaved so both see the same load. */
async function compare(
  workflow: BaseAgent,
  hand: BaseAgent,
  nodes: number,
  turns: number,
  batches: number,
): Promise<{ ours: Figures; theirs: Figures }> {
  const ours: Figures = { wall: [], cpu: [] };
  const theirs: Figures = { wall: [], cpu: [] };
  const workflowTurn = turnOf(workflow);
  const handTurn = turnOf(hand);
  for (let i = 0; i < 300; i++) {
    await workflowTurn();
    await handTurn();
  }
  for (let b = 0; b < batches; b++) {
    if (b % 2 === 0) {
      await batch(handTurn, turns, nodes, theirs);
      await batch(workflowTurn, turns, nodes, ours);
    } else {
      await batch(workflowTurn, turns, nodes, ours);
      await batch(handTurn, turns, nodes, theirs);
    }
  }
  return { ours, theirs };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/**
 * The workflow rows (ours: the workflow; theirs: the same pipeline as a hand-written agent), in
 * wall time (with the goal) and CPU time.
 */
export async function runWorkflowBench(options: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const turns = options.quick ? 100 : 400;
  const batches = options.quick ? 6 : 14;
  const rows: BenchRow[] = [];
  const cases: Array<[string, () => BaseAgent, () => BaseAgent, number]> = [
    ['20-node chain', chainWorkflow, () => new HandChain({ name: 'chain' }), CHAIN],
    ['10-way fan-out/fan-in', fanWorkflow, () => new HandFan({ name: 'fan' }), FAN + 2],
  ];
  for (const [label, workflow, hand, nodes] of cases) {
    const { ours, theirs } = await compare(workflow(), hand(), nodes, turns, batches);
    rows.push({
      label: `Workflow per-node overhead, ${label} (theirs: hand-written agent), wall`,
      unit: 'µs/node',
      ours: median(ours.wall),
      theirs: median(theirs.wall),
      better: 'lower',
      goal: { subject: 'ratio', op: '<=', target: 2 },
      samples: { ours: ours.wall, theirs: theirs.wall },
    });
    rows.push({
      label: `Workflow per-node overhead, ${label} (theirs: hand-written agent), CPU`,
      unit: 'µs/node',
      ours: median(ours.cpu),
      theirs: median(theirs.cpu),
      better: 'lower',
      samples: { ours: ours.cpu, theirs: theirs.cpu },
    });
  }
  return rows;
}
