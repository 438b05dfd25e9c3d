import { describe, expect, it } from 'vitest';

import { setup } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { getFunctionResponses, getText, modelContent } from '../content';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall, fakeText } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import { firstResult, isRetryDecision, toCallbackList } from './run-callbacks';

const echo = new FunctionTool({
  name: 'echo',
  description: 'echo',
  execute: (args) => ({ echoed: args }),
});

describe('callback helpers', () => {
  it('runs callbacks in order until the first non-undefined result', async () => {
    const calls: string[] = [];
    const result = await firstResult(
      [
        () => void calls.push('a'),
        async () => {
          calls.push('b');
          return 'B';
        },
        () => {
          calls.push('c');
          return 'C';
        },
      ],
      undefined,
    );
    expect(result).toBe('B');
    expect(calls).toEqual(['a', 'b']);
  });

  it('normalises one callback or a list', () => {
    const f = () => undefined;
    expect(toCallbackList(f)).toEqual([f]);
    expect(toCallbackList([f, f])).toHaveLength(2);
    expect(toCallbackList(undefined)).toEqual([]);
  });

  it('recognises only the exact retry decision', () => {
    expect(isRetryDecision({ retry: true })).toBe(true);
    expect(isRetryDecision({ retry: true, data: 1 })).toBe(false);
    expect(isRetryDecision({ retry: 'yes' })).toBe(false);
    expect(isRetryDecision(undefined)).toBe(false);
  });
});

describe('agent callbacks', () => {
  it('before-agent content skips the agent and ends the invocation', async () => {
    const model = new FakeModel({ strict: true });
    const after: string[] = [];
    const agent = new LlmAgent({
      name: 'agent',
      model,
      beforeAgentCallback: [
        (ctx) => void ctx.state.set('checked', true),
        () => modelContent('Closed today.'),
        () => modelContent('never reached'),
      ],
      afterAgentCallback: () => void after.push('after'),
    });
    const { run, session } = await setup(agent);
    const events = await run('hi');
    expect(events).toHaveLength(1);
    expect(getText(events[0]!.content)).toBe('Closed today.');
    expect(events[0]!.actions.stateDelta).toEqual({ checked: true });
    expect(model.callCount).toBe(0);
    expect(after).toEqual([]);
    expect((await session()).state.checked).toBe(true);
  });

  it('after-agent content is emitted as an extra event; state-only changes as an actions event', async () => {
    const agent = new LlmAgent({
      name: 'agent',
      model: new FakeModel(['answer']),
      beforeAgentCallback: (ctx) => void ctx.state.set('visits', 1),
      afterAgentCallback: [() => undefined, () => modelContent('(reviewed)')],
    });
    const { run } = await setup(agent);
    const events = await run('hi');
    expect(events.map((e) => getText(e.content))).toEqual(['', 'answer', '(reviewed)']);
    expect(events[0]!.content).toBeUndefined();
    expect(events[0]!.actions.stateDelta).toEqual({ visits: 1 });
  });
});

describe('model callbacks', () => {
  it('a before-model response skips the call and the request can be changed in place', async () => {
    const model = new FakeModel(['from model']);
    const agent = new LlmAgent({
      name: 'agent',
      model,
      beforeModelCallback: [
        ({ request }) => {
          request.config.temperature = 0;
        },
        ({ context }) => (context.state.get('cached') ? fakeText('from cache') : undefined),
      ],
    });
    const { run } = await setup(agent, { state: { cached: false } });
    expect(getText((await run('a'))[0]!.content)).toBe('from model');
    expect(model.requests[0]!.config.temperature).toBe(0);
    const { run: runCached } = await setup(
      new LlmAgent({
        name: 'agent',
        model: new FakeModel({ strict: true }),
        beforeModelCallback: () => fakeText('from cache'),
      }),
    );
    expect(getText((await runCached('a'))[0]!.content)).toBe('from cache');
  });

  it('an after-model response replaces the model response', async () => {
    const agent = new LlmAgent({
      name: 'agent',
      model: new FakeModel(['secret: 1234']),
      afterModelCallback: ({ response }) => fakeText(getText(response.content).replace(/\d/g, '#')),
    });
    const { run } = await setup(agent);
    expect(getText((await run('a'))[0]!.content)).toBe('secret: ####');
  });

  it('onModelError may retry, boundedly, then the error gets through', async () => {
    const attempts: number[] = [];
    const model = new FakeModel({ responses: () => new TypeError('overloaded') });
    const agent = new LlmAgent({
      name: 'agent',
      model,
      maxErrorRetries: 3,
      onModelErrorCallback: ({ attempt }) => {
        attempts.push(attempt);
        return { retry: true };
      },
    });
    const { run } = await setup(agent);
    const events = await run('a');
    expect(model.callCount).toBe(4);
    expect(attempts).toEqual([0, 1, 2, 3]);
    expect(events).toEqual([
      expect.objectContaining({ errorCode: 'MODEL_ERROR', errorMessage: 'overloaded' }),
    ]);
  });

  it('onModelError retry succeeds when the model recovers (default: 2 retries)', async () => {
    const model = new FakeModel([new TypeError('blip'), new TypeError('blip'), 'recovered']);
    const agent = new LlmAgent({
      name: 'agent',
      model,
      onModelErrorCallback: () => ({ retry: true }),
    });
    const { run } = await setup(agent);
    expect(getText((await run('a'))[0]!.content)).toBe('recovered');
  });

  it('onModelError may substitute a fallback response; undefined lets the error through', async () => {
    const seen: unknown[] = [];
    const agent = new LlmAgent({
      name: 'agent',
      model: new FakeModel([new TypeError('down')]),
      onModelErrorCallback: [
        ({ error }) => void seen.push(error),
        () => fakeText('Service unavailable, try later.'),
      ],
    });
    const { run } = await setup(agent);
    const events = await run('a');
    expect(getText(events[0]!.content)).toBe('Service unavailable, try later.');
    expect(events[0]!.errorCode).toBeUndefined();
    expect(String(seen[0])).toContain('down');
  });
});

describe('tool callbacks', () => {
  it('a before-tool value skips the tool; args can be changed in place', async () => {
    let ran = 0;
    const tool = new FunctionTool({
      name: 'charge',
      description: 'charge',
      execute: (args) => {
        ran++;
        return { charged: args.amount };
      },
    });
    const agent = new LlmAgent({
      name: 'agent',
      model: new FakeModel([
        fakeFunctionCall('charge', { amount: 5000 }),
        fakeFunctionCall('charge', { amount: 10 }),
        'ok',
      ]),
      tools: [tool],
      beforeToolCallback: [
        ({ args }) => {
          if ((args.amount as number) > 1000) return { error: 'amount too large' };
        },
        ({ args }) => {
          args.amount = (args.amount as number) * 100;
        },
      ],
    });
    const { run } = await setup(agent);
    const events = await run('a');
    const responses = events.flatMap((e) => getFunctionResponses(e.content)).map((r) => r.response);
    expect(responses).toEqual([{ error: 'amount too large' }, { charged: 1000 }]);
    expect(ran).toBe(1);
  });

  it('an after-tool value replaces the result (normalised first)', async () => {
    const agent = new LlmAgent({
      name: 'agent',
      model: new FakeModel([fakeFunctionCall('echo', { x: 1 }), 'ok']),
      tools: [new FunctionTool({ name: 'echo', description: 'e', execute: () => 'raw' })],
      afterToolCallback: ({ result }) => ({ wrapped: result }),
    });
    const { run } = await setup(agent);
    const events = await run('a');
    expect(getFunctionResponses(events[1]!.content)[0]!.response).toEqual({
      wrapped: { result: 'raw' },
    });
  });

  it('onToolError may retry (bounded) or substitute a fallback result', async () => {
    let calls = 0;
    const flaky = new FunctionTool({
      name: 'flaky',
      description: 'f',
      execute: () => {
        calls++;
        if (calls < 3) throw new TypeError(`fail ${calls}`);
        return { ok: calls };
      },
    });
    const agent = new LlmAgent({
      name: 'agent',
      model: new FakeModel([fakeFunctionCall('flaky'), 'done']),
      tools: [flaky],
      onToolErrorCallback: () => ({ retry: true }),
    });
    const { run } = await setup(agent);
    const events = await run('a');
    expect(getFunctionResponses(events[1]!.content)[0]!.response).toEqual({ ok: 3 });

    const always = new FunctionTool({
      name: 'always',
      description: 'a',
      execute: () => {
        throw new TypeError('nope');
      },
    });
    let tries = 0;
    const fallbackAgent = new LlmAgent({
      name: 'agent',
      model: new FakeModel([fakeFunctionCall('always'), 'done']),
      tools: [always],
      maxErrorRetries: 1,
      onToolErrorCallback: ({ attempt }) => {
        tries++;
        return attempt < 1 ? { retry: true } : { fallback: 'cached value' };
      },
    });
    const second = await setup(fallbackAgent);
    const fallbackEvents = await second.run('a');
    expect(tries).toBe(2);
    expect(getFunctionResponses(fallbackEvents[1]!.content)[0]!.response).toEqual({
      fallback: 'cached value',
    });
  });

  it('onToolError sees an unknown tool and may answer for it', async () => {
    const seen: string[] = [];
    const agent = new LlmAgent({
      name: 'agent',
      model: new FakeModel([fakeFunctionCall('get_wether', { city: 'Oslo' }), 'ok']),
      tools: [echo],
      onToolErrorCallback: ({ tool, error }) => {
        seen.push(`${tool.name}: ${(error as Error).name}`);
        return { error: 'No such tool; did you mean echo?' };
      },
    });
    const { run } = await setup(agent);
    const events = await run('a');
    expect(seen).toEqual(['get_wether: ToolNotFoundError']);
    expect(getFunctionResponses(events[1]!.content)[0]!.response).toEqual({
      error: 'No such tool; did you mean echo?',
    });
  });

  it('exhausted retries let the error through to the model', async () => {
    let calls = 0;
    const broken = new FunctionTool({
      name: 'broken',
      description: 'b',
      execute: () => {
        calls++;
        throw new TypeError('still broken');
      },
    });
    const agent = new LlmAgent({
      name: 'agent',
      model: new FakeModel([fakeFunctionCall('broken'), 'done']),
      tools: [broken, echo],
      onToolErrorCallback: () => ({ retry: true }),
    });
    const { run } = await setup(agent);
    const events = await run('a');
    expect(calls).toBe(3);
    expect(getFunctionResponses(events[1]!.content)[0]!.response).toMatchObject({
      error: { code: 'TOOL_EXECUTION_FAILED', message: expect.stringContaining('still broken') },
    });
  });
});
