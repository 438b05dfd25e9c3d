import { describe, expect, it } from 'vitest';

import { START, Workflow, type NodeContext } from '../src';
import { runnerFor, turn, workflowOutput } from './helpers';

describe("the workflow's output, as Python ADK computes it", () => {
  it('several terminal nodes that all produce output fail the run, naming the problem', async () => {
    const english = (text: string) => `hello ${text}`;
    const french = (text: string) => `bonjour ${text}`;
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, [english, french]]] })),
      'Ada',
    );
    const errors = events.filter((event) => event.errorCode !== undefined);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.errorCode).toBe('WORKFLOW_MULTIPLE_TERMINAL_OUTPUTS');
    expect(errors[0]?.errorMessage).toMatch(/english.*french|french.*english/);
  });

  it('one of several terminal nodes producing output gives the output', async () => {
    function route(text: string, ctx: NodeContext) {
      ctx.route = text.startsWith('fr') ? 'fr' : 'en';
      return text;
    }
    const en = (text: string) => `hello ${text}`;
    const fr = (text: string) => `bonjour ${text}`;
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, route, { en, fr }]] })),
      'fr Ada',
    );
    expect(workflowOutput(events)).toBe('bonjour fr Ada');
  });

  it('a run that reaches no terminal node has no output (an earlier node does not stand in)', async () => {
    function draft(text: string, ctx: NodeContext) {
      if (text.includes('ready')) ctx.route = 'publish';
      return `draft of ${text}`;
    }
    const publish = (text: string) => `published ${text}`;
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, draft, { publish }]] })),
      'notes',
    );
    expect(events.some((event) => event.errorCode !== undefined)).toBe(false);
    expect(workflowOutput(events)).toBeUndefined();
  });
});
