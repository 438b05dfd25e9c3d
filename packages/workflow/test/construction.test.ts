import { describe, expect, it } from 'vitest';

import { Workflow } from '../src';
import { outputs, runnerFor, turn, workflowOutput } from './helpers';

describe('construction as Python ADK accepts it', () => {
  it("'START' written as a string is the entry", async () => {
    const shout = (text: string) => text.toUpperCase();
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [['START', shout]] })),
      'hello',
    );
    expect(workflowOutput(events)).toBe('HELLO');
  });

  it('a workflow without edges runs nothing and completes without output', async () => {
    const events = await turn(runnerFor(new Workflow({ name: 'empty' })), 'hello');
    expect(outputs(events)).toEqual([]);
    expect(events.some((event) => event.errorCode !== undefined)).toBe(false);
    expect(workflowOutput(events)).toBeUndefined();
  });
});
