import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { LlmAgent } from '../agents/llm-agent';
import { getText, userContent } from '../content';
import type { Event } from '../events';
import { Runner } from '../runner/runner';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import { InputBlocklistPolicy } from './input-blocklist-policy';
import { RedactionPolicy } from './redaction-policy';
import { ToolAccessPolicy } from './tool-access-policy';

async function collect(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('policies in a run', () => {
  it('input filter: a rejected message never reaches a model, now or later', async () => {
    const model = new FakeModel({ responses: ['Hello!'] });
    const runner = new Runner({
      appName: 'app',
      agent: new LlmAgent({ name: 'bot', model }),
      policies: [
        new InputBlocklistPolicy({ patterns: ['password'], reason: 'Never share passwords.' }),
      ],
      autoCreateSession: true,
    });
    const rejected = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('my password is 123') }),
    );
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ author: 'bot', errorCode: 'INPUT_REJECTED' });
    expect(getText(rejected[0]?.content)).toBe('Never share passwords.');
    expect(model.requests).toHaveLength(0);

    await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('hi') }));
    expect(model.requests[0]?.contents).toEqual([{ role: 'user', parts: [{ text: 'hi' }] }]);
    // The rejected message is still in the session, for audit.
    const session = await runner.sessionService.getSession({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
    });
    expect(session?.events.map((e) => getText(e.content))).toContain('my password is 123');
  });

  it('input filter: a rewritten message is what is stored and what the model sees', async () => {
    const model = new FakeModel({ responses: ['ok'] });
    const agent = new LlmAgent({ name: 'bot', model });
    const runner = new Runner({
      appName: 'app',
      agent,
      policies: [
        new RedactionPolicy({ patterns: [/\d{4}-\d{4}/], applyTo: 'input', replacement: '[card]' }),
      ],
      autoCreateSession: true,
    });
    await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('card 1234-5678') }),
    );
    expect(model.requests[0]?.contents).toEqual([
      { role: 'user', parts: [{ text: 'card [card]' }] },
    ]);
    const session = await runner.sessionService.getSession({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
    });
    expect(JSON.stringify(session?.events)).not.toContain('1234-5678');
  });

  it('output filter: model text is redacted in streamed chunks, the stored event and outputKey', async () => {
    const model = new FakeModel({ responses: [['Your key is ', 'sk-999', ' ok']] });
    const agent = new LlmAgent({
      name: 'bot',
      model,
      outputKey: 'answer',
      policies: [new RedactionPolicy({ patterns: [/sk-\d+/] })],
    });
    const runner = new Runner({ appName: 'app', agent, autoCreateSession: true });
    const events = await collect(
      runner.run({
        userId: 'u',
        sessionId: 's',
        newMessage: userContent('key?'),
        runConfig: { streamingMode: 'sse' },
      }),
    );
    expect(events.filter((e) => e.partial).map((e) => getText(e.content))).toEqual([
      'Your key is ',
      '[REDACTED]',
      ' ok',
    ]);
    const final = events.filter((e) => !e.partial);
    expect(getText(final.at(-1)?.content)).toBe('Your key is [REDACTED] ok');
    const session = await runner.sessionService.getSession({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
    });
    expect(session?.state.answer).toBe('Your key is [REDACTED] ok');
    expect(JSON.stringify(session?.events)).not.toContain('sk-999');
  });

  it('tool authorization: a denied call is not run and the model sees the reason', async () => {
    const dropped: string[] = [];
    const dropTable = new FunctionTool({
      name: 'drop_table',
      description: 'Drop a table.',
      parameters: z.object({ table: z.string() }),
      execute: ({ table }) => {
        dropped.push(table);
        return { dropped: table };
      },
    });
    const model = new FakeModel({
      responses: [fakeFunctionCall('drop_table', { table: 'users' }, 'd1'), 'I may not do that.'],
    });
    const agent = new LlmAgent({
      name: 'dba',
      model,
      tools: [dropTable],
      policies: [
        new ToolAccessPolicy({ deny: ['drop_table'], reason: 'Schema changes need a human DBA.' }),
      ],
    });
    const runner = new Runner({ appName: 'app', agent, autoCreateSession: true });
    const events = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('drop users') }),
    );
    expect(dropped).toEqual([]);
    const denial = {
      error: { code: 'TOOL_CALL_DENIED', message: 'Schema changes need a human DBA.' },
    };
    expect(events[1]?.content?.parts[0]?.functionResponse?.response).toEqual(denial);
    expect(model.requests[1]?.contents.at(-1)?.parts[0]?.functionResponse?.response).toEqual(
      denial,
    );
    expect(getText(events.at(-1)?.content)).toBe('I may not do that.');
  });

  it('runner policies apply to every agent, before the agent’s own', async () => {
    const order: string[] = [];
    const model = new FakeModel({ responses: [fakeFunctionCall('echo', {}, 'e1'), 'done'] });
    const echo = new FunctionTool({
      name: 'echo',
      description: 'Echo.',
      execute: () => ({ ok: true }),
    });
    const agent = new LlmAgent({
      name: 'bot',
      model,
      tools: [echo],
      policies: [{ name: 'agent', authorizeTool: () => void order.push('agent') }],
    });
    const runner = new Runner({
      appName: 'app',
      agent,
      policies: [{ name: 'global', authorizeTool: () => void order.push('global') }],
      autoCreateSession: true,
    });
    await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('go') }));
    expect(order).toEqual(['global', 'agent']);
  });

  it('input filter: a rejection keeps the conversation with the agent it was with', async () => {
    const rootModel = new FakeModel({
      responses: [fakeFunctionCall('transfer_to_agent', { agent_name: 'support' }, 't1')],
    });
    const supportModel = new FakeModel({ responses: ['How can I help?', 'Still here.'] });
    const support = new LlmAgent({ name: 'support', model: supportModel });
    const root = new LlmAgent({ name: 'root', model: rootModel, subAgents: [support] });
    const runner = new Runner({
      appName: 'app',
      agent: root,
      policies: [new InputBlocklistPolicy({ patterns: ['forbidden'] })],
      autoCreateSession: true,
    });
    await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('help') }));
    const rejected = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('forbidden') }),
    );
    expect(rejected.map((e) => [e.author, e.errorCode])).toEqual([['support', 'INPUT_REJECTED']]);
    const next = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('ok') }),
    );
    expect(next.map((e) => getText(e.content))).toEqual(['Still here.']);
    expect(rootModel.requests).toHaveLength(1);
  });
});
