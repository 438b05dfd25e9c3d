import {
  BuiltInPlanner,
  codeExecutionTool,
  FunctionTool,
  LlmAgent,
  PlanReActPlanner,
  Runner,
  userContent,
  type Event,
  UnsupportedProviderToolError,
  urlContextTool,
} from '@adk/core';
import { startFakeAnthropic } from '@adk/fake-provider-servers';
import {
  runAgent,
  THINKING_SCRIPT,
  thinkingAcceptance,
  webSearchAcceptance,
} from '@adk/fake-provider-servers/acceptance';
import { describe, expect, it } from 'vitest';

import { createAnthropic } from '../src';

const createModel = (baseURL: string) =>
  createAnthropic({ apiKey: 'test-key', baseURL, betas: ['interleaved-thinking-2025-05-14'] })(
    'claude-sonnet-4-5',
  );

interface Body {
  thinking?: unknown;
  tools?: Array<Record<string, unknown>>;
  messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
}

thinkingAcceptance({
  provider: 'Anthropic',
  startServer: startFakeAnthropic,
  createModel,
  signed: true,
  expectRequests(bodies) {
    const [first, second] = bodies as Body[];
    expect(first!.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    // The thinking block goes back unchanged, signature included, before the tool call.
    expect(second!.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: THINKING_SCRIPT[0]!.thinking, signature: 'sig-turn-1' },
        expect.objectContaining({ type: 'tool_use', name: 'get_weather' }),
      ],
    });
    expect(second!.messages[2]!.content[0]).toMatchObject({ type: 'tool_result' });
  },
});

webSearchAcceptance({
  provider: 'Anthropic',
  startServer: startFakeAnthropic,
  createModel,
  citations: true,
  expectRequest(body) {
    expect((body as Body).tools).toEqual([{ type: 'web_search_20250305', name: 'web_search' }]);
  },
});

describe('Anthropic server tools and thinking levels', () => {
  it('code execution: executableCode and codeExecutionResult parts, with the beta header added', async () => {
    const server = await startFakeAnthropic({
      script: [{ codeExecution: { code: 'print(6 * 7)', output: '42\n' }, text: 'It is 42.' }],
    });
    try {
      const agent = new LlmAgent({
        name: 'coder',
        model: createModel(server.baseURL),
        tools: [codeExecutionTool()],
      });
      const events = await runAgent(agent, '6 * 7?', true);
      expect(events.at(-1)!.content?.parts).toEqual([
        { executableCode: { language: 'PYTHON', code: 'print(6 * 7)' } },
        { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '42\n' } },
        { text: 'It is 42.' },
      ]);
      expect(server.requests[0]!.headers['anthropic-beta']).toBe(
        'interleaved-thinking-2025-05-14,code-execution-2025-05-22',
      );
      expect((server.requests[0]!.body as Body).tools).toEqual([
        { type: 'code_execution_20250522', name: 'code_execution' },
      ]);
      // Server tools go next to the agent's own tools.
      const withTool = new LlmAgent({
        name: 'coder_with_tool',
        model: createModel(server.baseURL),
        tools: [
          codeExecutionTool(),
          new FunctionTool({
            name: 'lookup',
            description: 'Looks up.',
            parameters: { type: 'object', properties: {} },
            execute: () => ({}),
          }),
        ],
      });
      server.push({ text: 'ok' });
      await runAgent(withTool, 'go', false);
      expect((server.requests[1]!.body as Body).tools!.map((tool) => tool.name)).toEqual([
        'lookup',
        'code_execution',
      ]);
    } finally {
      await server.close();
    }
  });

  it('a tool Anthropic has no server tool for fails when the agent is built', () => {
    const model = createAnthropic({ apiKey: 'k', baseURL: 'http://127.0.0.1:9' })(
      'claude-sonnet-4-5',
    );
    expect(() => new LlmAgent({ name: 'reader', model, tools: [urlContextTool()] })).toThrow(
      UnsupportedProviderToolError,
    );
  });

  it('maps a thinking level to a budget, and a budget of 0 to no thinking', async () => {
    const server = await startFakeAnthropic({ script: [{ text: 'a' }, { text: 'b' }] });
    try {
      const model = createModel(server.baseURL);
      for (const thinkingConfig of [{ thinkingLevel: 'LOW' as const }, { thinkingBudget: 0 }]) {
        const agent = new LlmAgent({
          name: 'leveled',
          model,
          generateContentConfig: { thinkingConfig },
        });
        await runAgent(agent, 'hi', false);
      }
      expect((server.requests[0]!.body as Body).thinking).toEqual({
        type: 'enabled',
        budget_tokens: 4096,
      });
      expect((server.requests[1]!.body as Body).thinking).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it('PlanReActPlanner: tagged planning comes back as thoughts; the plan is sent back as text', async () => {
    const server = await startFakeAnthropic({
      script: [{ text: '/*PLANNING*/1. answer directly/*FINAL_ANSWER*/Hello!' }, { text: 'Bye!' }],
    });
    try {
      const agent = new LlmAgent({
        name: 'planner',
        model: createModel(server.baseURL),
        planner: new PlanReActPlanner(),
      });
      const runner = new Runner({ appName: 'plan', agent, autoCreateSession: true });
      const turn = async (text: string) => {
        const events: Event[] = [];
        for await (const event of runner.run({
          userId: 'u',
          sessionId: 's',
          newMessage: userContent(text),
        }))
          events.push(event);
        return events;
      };
      const first = await turn('hi');
      expect(first.at(-1)!.content?.parts).toEqual([
        { text: '1. answer directly/*FINAL_ANSWER*/', thought: true },
        { text: 'Hello!' },
      ]);
      await turn('bye');
      await runner.close();
      const second = server.requests[1]!.body as Body;
      expect(second.messages[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'text', text: '1. answer directly/*FINAL_ANSWER*/' },
          { type: 'text', text: 'Hello!' },
        ],
      });
    } finally {
      await server.close();
    }
  });

  it('a redacted thinking block goes back unchanged, before the tool call of its turn', async () => {
    const server = await startFakeAnthropic({
      script: [
        {
          redactedThinking: 'EncryptedOpaqueData==',
          toolCalls: [{ name: 'lookup', args: {} }],
        },
        { text: 'Done.' },
      ],
    });
    try {
      const agent = new LlmAgent({
        name: 'redacted',
        model: createModel(server.baseURL),
        planner: new BuiltInPlanner({ thinkingConfig: { thinkingBudget: 1500 } }),
        tools: [
          new FunctionTool({
            name: 'lookup',
            description: 'Looks up.',
            parameters: { type: 'object', properties: {} },
            execute: () => ({ ok: true }),
          }),
        ],
      });
      await runAgent(agent, 'go', true);
      const second = server.requests[1]!.body as Body;
      expect(second.thinking).toEqual({ type: 'enabled', budget_tokens: 1500 });
      expect(second.messages[1]!.content.map((block) => block.type)).toEqual([
        'redacted_thinking',
        'tool_use',
      ]);
      expect(second.messages[1]!.content[0]).toEqual({
        type: 'redacted_thinking',
        data: 'EncryptedOpaqueData==',
      });
    } finally {
      await server.close();
    }
  });
});
