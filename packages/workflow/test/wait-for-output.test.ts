import { describe, expect, it } from 'vitest';

import { functionNode, START, Workflow } from '../src';
import { runnerFor, turn, workflowOutput } from './helpers';

describe("waitForOutput (Python's wait_for_output)", () => {
  it('a node without output yet does not trigger the next; it goes on once it has one', async () => {
    const reports: unknown[] = [];
    const english = () => 'hello';
    const french = () => 'bonjour';
    const german = () => 'hallo';
    const collect = functionNode({
      name: 'collect',
      waitForOutput: true,
      stateKeys: ['greetings'],
      run: (greeting: string, ctx, state) => {
        const greetings = [...((state.greetings as string[] | undefined) ?? []), greeting];
        ctx.state.set('greetings', greetings);
        return greetings.length === 3 ? [...greetings].sort() : undefined;
      },
    });
    const report = (greetings: string[] | undefined) => {
      reports.push(greetings);
      return greetings?.join(', ');
    };
    const events = await turn(
      runnerFor(
        new Workflow({ name: 'wf', edges: [[START, [english, french, german], collect, report]] }),
      ),
      'go',
    );
    expect(reports).toEqual([['bonjour', 'hallo', 'hello']]);
    expect(workflowOutput(events)).toBe('bonjour, hallo, hello');
  });
});
