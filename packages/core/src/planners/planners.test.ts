import { describe, expect, it } from 'vitest';

import { setup } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import type { Part } from '../content';
import type { CallbackContext } from '../context';
import { FakeModel } from '../testing/fake-model';
import { FunctionTool } from '../tools/function-tool';
import { z } from 'zod';
import { BuiltInPlanner } from './built-in-planner';
import { PLAN_RE_ACT_INSTRUCTION } from './plan-re-act-instruction';
import { PlanReActPlanner } from './plan-re-act-planner';
import type { Planner } from './planner';

const search = new FunctionTool({
  name: 'search',
  description: 'Searches the docs.',
  parameters: z.object({ query: z.string() }),
  execute: async ({ query }) => ({ hits: [`${query}: found`] }),
});

describe('PlanReActPlanner.processPlanningResponse', () => {
  const planner = new PlanReActPlanner();
  const process = (parts: Part[]) => planner.processPlanningResponse(undefined, parts);

  it('splits text at the last final-answer tag: reasoning before it is a thought, the rest the answer', () => {
    expect(process([{ text: '/*REASONING*/The docs say 42. /*FINAL_ANSWER*/ It is 42.' }])).toEqual(
      [{ text: 'The docs say 42. /*FINAL_ANSWER*/', thought: true }, { text: ' It is 42.' }],
    );
    expect(process([{ text: 'a /*FINAL_ANSWER*/ b /*FINAL_ANSWER*/c' }])).toEqual([
      { text: 'a /*FINAL_ANSWER*/ b /*FINAL_ANSWER*/', thought: true },
      { text: 'c' },
    ]);
  });

  it('marks text opening with a planning, replanning, reasoning or action tag as a thought, without the tag', () => {
    expect(
      process([
        { text: '/*PLANNING*/1. search' },
        { text: '/*REPLANNING*/1. search again' },
        { text: '/*ACTION*/' },
        { text: 'plain words' },
      ]),
    ).toEqual([
      { text: '1. search', thought: true },
      { text: '1. search again', thought: true },
      { text: '', thought: true },
      { text: 'plain words' },
    ]);
  });

  it('keeps the first group of calls and drops what follows it; calls without a name are left out', () => {
    const call = (name: string): Part => ({ functionCall: { name, args: {} } });
    expect(
      process([
        { text: '/*PLANNING*/plan' },
        call(''),
        call('a'),
        call('b'),
        { text: 'after the calls' },
        call('c'),
      ]),
    ).toEqual([{ text: 'plan', thought: true }, call('a'), call('b')]);
    expect(process([call('a'), call('b')])).toEqual([call('a'), call('b')]);
  });

  it('leaves an empty response alone', () => {
    expect(process([])).toBeUndefined();
  });
});

describe('planners in an agent run', () => {
  it('PlanReActPlanner: instruction sent, plan stored as a thought, sent back as plain text, hidden from other agents', async () => {
    const model = new FakeModel({
      strict: true,
      responses: [
        {
          content: {
            role: 'model',
            parts: [
              { text: '/*PLANNING*/1. search the docs' },
              { functionCall: { name: 'search', args: { query: 'answer' } } },
            ],
          },
        },
        '/*REASONING*/The search found it./*FINAL_ANSWER*/The answer is 42.',
      ],
    });
    const planner = new LlmAgent({
      name: 'planner',
      model,
      tools: [search],
      planner: new PlanReActPlanner(),
    });
    const { run } = await setup(planner);
    const events = await run('What is the answer?');

    expect(model.requests[0]!.systemInstruction).toContain(PLAN_RE_ACT_INSTRUCTION);
    const answer = events.at(-1)!;
    expect(answer.content?.parts).toEqual([
      { text: 'The search found it./*FINAL_ANSWER*/', thought: true },
      { text: 'The answer is 42.' },
    ]);
    expect(events[0]!.content?.parts[0]).toEqual({ text: '1. search the docs', thought: true });
    // The agent's own plan goes back to the model as plain text.
    const second = model.requests[1]!.contents;
    expect(second[1]!.parts[0]).toEqual({ text: '1. search the docs' });
  });

  it('PlanReActPlanner: another agent of the tree never sees the planner agent thoughts', async () => {
    const plannerModel = new FakeModel({
      responses: ['/*PLANNING*/think hard/*FINAL_ANSWER*/Forty-two.'],
    });
    const readerModel = new FakeModel({ responses: ['I read it.'] });
    const planner = new LlmAgent({
      name: 'planner',
      model: plannerModel,
      planner: new PlanReActPlanner(),
    });
    const reader = new LlmAgent({ name: 'reader', model: readerModel });
    const { SequentialAgent } = await import('../agents/sequential-agent');
    const pipeline = new SequentialAgent({ name: 'pipeline', subAgents: [planner, reader] });
    const { run } = await setup(pipeline);
    await run('Question?');
    const seen = JSON.stringify(readerModel.requests[0]!.contents);
    expect(seen).toContain('[planner] said: Forty-two.');
    expect(seen).not.toContain('think hard');
  });

  it('BuiltInPlanner sets its thinking config on every request, over the agent and run settings', async () => {
    const model = new FakeModel({ responses: ['ok'] });
    const agent = new LlmAgent({
      name: 'thinker',
      model,
      generateContentConfig: { temperature: 0.1, thinkingConfig: { thinkingBudget: 10 } },
      planner: new BuiltInPlanner({
        thinkingConfig: { includeThoughts: true, thinkingLevel: 'HIGH' },
      }),
    });
    const { run } = await setup(agent);
    await run('hi');
    expect(model.requests[0]!.config.thinkingConfig).toEqual({
      includeThoughts: true,
      thinkingLevel: 'HIGH',
    });
    expect(model.requests[0]!.config.temperature).toBe(0.1);
    expect(model.requests[0]!.systemInstruction ?? '').not.toContain('/*PLANNING*/');
  });

  it('a custom planner may change state through its context; the change lands on the response event', async () => {
    const model = new FakeModel({ responses: ['draft'] });
    const counting: Planner = {
      buildPlanningInstruction: () => 'Plan briefly.',
      processPlanningResponse(context: CallbackContext, parts) {
        context.state.set('planned', ((context.state.get('planned') as number) ?? 0) + 1);
        return parts.map((part) => ({ ...part, text: `${part.text ?? ''}!` }));
      },
    };
    const agent = new LlmAgent({ name: 'custom', model, planner: counting });
    const { run, session } = await setup(agent);
    const events = await run('hi');
    expect(model.requests[0]!.systemInstruction).toContain('Plan briefly.');
    expect(events.at(-1)!.content?.parts).toEqual([{ text: 'draft!' }]);
    expect(events.at(-1)!.actions.stateDelta).toEqual({ planned: 1 });
    expect((await session()).state.planned).toBe(1);
  });

  it('streamed chunks go through the planner too', async () => {
    const model = new FakeModel({
      responses: [['/*PLANNING*/step one ', '/*FINAL_ANSWER*/done']],
    });
    const agent = new LlmAgent({ name: 'streamer', model, planner: new PlanReActPlanner() });
    const { run } = await setup(agent);
    const events = await run('go', { runConfig: { streamingMode: 'sse' } });
    const partial = events.filter((event) => event.partial);
    expect(partial[0]!.content?.parts).toEqual([{ text: 'step one ', thought: true }]);
    expect(events.at(-1)!.content?.parts.filter((part) => !part.thought)).toEqual([
      { text: 'done' },
    ]);
  });
});
