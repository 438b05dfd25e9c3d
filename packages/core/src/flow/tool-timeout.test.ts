import { afterEach, describe, expect, it, vi } from 'vitest';

import { setup } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { InvalidArgumentError } from '../errors/invalid-argument-error';
import { ToolTimeoutError } from '../errors/tool-timeout-error';
import type { Event } from '../events';
import { createRunConfig } from '../context/run-config';
import { FakeModel } from '../testing/fake-model';
import { FunctionTool } from '../tools/function-tool';
import type { Tool } from '../tools/tool';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../tools/tool-timeout';

afterEach(() => {
  vi.useRealTimers();
});

/** A tool that never settles on its own and records the signal it was given. */
function hangingTool(options: { timeoutMs?: number } = {}) {
  const seen: { signal?: AbortSignal; reason?: unknown } = {};
  const tool = new FunctionTool({
    name: 'hang',
    description: 'Never answers.',
    ...options,
    execute: (_args, context) => {
      seen.signal = context.signal;
      return new Promise((_resolve, reject) => {
        context.signal.addEventListener('abort', () => {
          seen.reason = context.signal.reason;
          reject(new Error('stopped by the signal'));
        });
      });
    },
  });
  return { tool, seen };
}

function functionResponses(events: Event[]) {
  return events.flatMap(
    (event) => event.content?.parts.flatMap((part) => part.functionResponse ?? []) ?? [],
  );
}

function callsThenAnswer() {
  return new FakeModel([{ functionCalls: [{ name: 'hang', args: {} }] }, 'Sorry, it timed out.']);
}

describe('tool call timeouts', () => {
  it('answers a hung call with TOOL_TIMEOUT, aborts its signal and goes on with the run', async () => {
    const { tool, seen } = hangingTool({ timeoutMs: 30 });
    const model = callsThenAnswer();
    const { run } = await setup(new LlmAgent({ name: 'agent', model, tools: [tool] }));
    const events = await run('go');
    const [response] = functionResponses(events);
    expect(response?.response).toEqual({
      error: {
        code: 'TOOL_TIMEOUT',
        message: 'Tool "hang" did not finish within 30 ms and was stopped.',
      },
    });
    expect(seen.signal?.aborted).toBe(true);
    expect(ToolTimeoutError.isInstance(seen.reason)).toBe(true);
    // The model was called again with the timeout as the call's answer, and the run finished.
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.contents.at(-1)?.parts[0]?.functionResponse?.response).toEqual(
      response?.response,
    );
    expect(events.at(-1)?.content?.parts[0]?.text).toBe('Sorry, it timed out.');
  });

  it('takes the tool timeout, then the agent, then RunConfig, then the 5-minute default', async () => {
    vi.useFakeTimers();
    const timeoutOf = async (
      toolTimeout: number | undefined,
      agentTimeout: number | undefined,
      runTimeout: number | undefined,
    ) => {
      const { tool } = hangingTool(toolTimeout === undefined ? {} : { timeoutMs: toolTimeout });
      const agent = new LlmAgent({
        name: 'agent',
        model: callsThenAnswer(),
        tools: [tool],
        ...(agentTimeout === undefined ? {} : { toolTimeoutMs: agentTimeout }),
      });
      const { run } = await setup(agent);
      const running = run(
        'go',
        runTimeout === undefined ? {} : { runConfig: { toolTimeoutMs: runTimeout } },
      );
      await vi.runAllTimersAsync();
      const error = (
        functionResponses(await running)[0]?.response as { error: { message: string } }
      ).error;
      return Number(/within (\d+) ms/.exec(error.message)?.[1]);
    };
    expect(await timeoutOf(10, 20, 30)).toBe(10);
    expect(await timeoutOf(undefined, 20, 30)).toBe(20);
    expect(await timeoutOf(undefined, undefined, 30)).toBe(30);
    expect(await timeoutOf(undefined, undefined, undefined)).toBe(DEFAULT_TOOL_TIMEOUT_MS);
    expect(DEFAULT_TOOL_TIMEOUT_MS).toBe(300_000);
  });

  it('never times out with 0 or Infinity, and then gives the run signal itself', async () => {
    for (const timeoutMs of [0, Infinity]) {
      let signal: AbortSignal | undefined;
      const tool = new FunctionTool({
        name: 'hang',
        description: 'Slow but finishes.',
        timeoutMs,
        execute: async (_args, context) => {
          signal = context.signal;
          await new Promise((resolve) => setTimeout(resolve, 20));
          return { done: true };
        },
      });
      const { run } = await setup(
        new LlmAgent({ name: 'agent', model: callsThenAnswer(), tools: [tool], toolTimeoutMs: 1 }),
      );
      expect(functionResponses(await run('go'))[0]?.response).toEqual({ done: true });
      expect(signal?.aborted).toBe(false);
    }
  });

  it('lets a tool that finishes in time keep its result, and leaves its signal un-aborted', async () => {
    let signal: AbortSignal | undefined;
    const tool = new FunctionTool({
      name: 'hang',
      description: 'Quick.',
      timeoutMs: 1_000,
      execute: (_args, context) => {
        signal = context.signal;
        return { ok: 1 };
      },
    });
    const { run } = await setup(
      new LlmAgent({ name: 'agent', model: callsThenAnswer(), tools: [tool] }),
    );
    expect(functionResponses(await run('go'))[0]?.response).toEqual({ ok: 1 });
    expect(signal?.aborted).toBe(false);
  });

  it('still aborts the call when the whole run is cancelled', async () => {
    const { tool, seen } = hangingTool({ timeoutMs: 60_000 });
    const { run } = await setup(
      new LlmAgent({ name: 'agent', model: callsThenAnswer(), tools: [tool] }),
    );
    const controller = new AbortController();
    const running = run('go', { signal: controller.signal });
    await vi.waitFor(() => expect(seen.signal).toBeDefined());
    controller.abort(new Error('user left'));
    await running;
    expect(seen.signal?.aborted).toBe(true);
    expect((seen.reason as Error).message).toBe('user left');
  });

  it('lets onToolError see the ToolTimeoutError and substitute an answer', async () => {
    const { tool } = hangingTool({ timeoutMs: 10 });
    const seen: unknown[] = [];
    const agent = new LlmAgent({
      name: 'agent',
      model: callsThenAnswer(),
      tools: [tool],
      onToolErrorCallback: ({ error }) => {
        seen.push(error);
        return { fallback: 'cached answer' };
      },
    });
    const { run } = await setup(agent);
    expect(functionResponses(await run('go'))[0]?.response).toEqual({ fallback: 'cached answer' });
    expect(ToolTimeoutError.isInstance(seen[0])).toBe(true);
    expect(seen[0]).toMatchObject({ toolName: 'hang', timeoutMs: 10, code: 'TOOL_TIMEOUT' });
  });

  it('times out a Tool implemented directly, not only FunctionTool', async () => {
    const tool: Tool = {
      name: 'hang',
      description: 'raw',
      timeoutMs: 10,
      declaration: () => ({ name: 'hang', description: 'raw' }),
      run: () => new Promise(() => undefined),
    };
    const { run } = await setup(
      new LlmAgent({ name: 'agent', model: callsThenAnswer(), tools: [tool] }),
    );
    expect(functionResponses(await run('go'))[0]?.response).toMatchObject({
      error: { code: 'TOOL_TIMEOUT' },
    });
  });

  it('refuses a negative or non-numeric timeout with InvalidArgumentError', () => {
    const attempts = [
      () => new FunctionTool({ name: 't', description: 'd', execute: () => 1, timeoutMs: -1 }),
      () => new LlmAgent({ name: 'a', toolTimeoutMs: Number.NaN }),
      () => createRunConfig({ toolTimeoutMs: -5 }),
    ];
    for (const attempt of attempts) {
      expect(() => attempt()).toThrow(expect.toSatisfy(InvalidArgumentError.isInstance));
    }
  });
});
