import {
  codeExecutionTool,
  FunctionTool,
  LlmAgent,
  UnsupportedProviderToolError,
  urlContextTool,
  webSearchTool,
} from '@adk/core';
import { startFakeGemini } from '@adk/fake-provider-servers';
import {
  runAgent,
  THINKING_SCRIPT,
  thinkingAcceptance,
  webSearchAcceptance,
} from '@adk/fake-provider-servers/acceptance';
import { describe, expect, it } from 'vitest';

import { createGemini } from '../src';

const createModel = (baseURL: string, name = 'gemini-2.5-flash') =>
  createGemini({ apiKey: 'test-key', baseURL })(name);

interface Body {
  tools?: Array<Record<string, unknown>>;
  generationConfig?: { thinkingConfig?: unknown };
  contents: Array<{ role: string; parts: Array<Record<string, unknown>> }>;
}

thinkingAcceptance({
  provider: 'Gemini',
  startServer: startFakeGemini,
  createModel,
  // Gemini signs the turn's first function call, not the thought.
  signed: false,
  expectRequests(bodies) {
    const [first, second] = bodies as Body[];
    expect(first!.generationConfig?.thinkingConfig).toEqual({
      includeThoughts: true,
      thinkingBudget: 2048,
    });
    expect(second!.contents[1]).toEqual({
      role: 'model',
      parts: [
        { text: THINKING_SCRIPT[0]!.thinking, thought: true },
        {
          functionCall: { name: 'get_weather', args: { city: 'Paris' } },
          thoughtSignature: 'sig-turn-1',
        },
      ],
    });
  },
});

webSearchAcceptance({
  provider: 'Gemini',
  startServer: startFakeGemini,
  createModel,
  citations: false,
  expectRequest(body) {
    expect((body as Body).tools).toEqual([{ googleSearch: {} }]);
  },
});

describe('Gemini provider tools and thinking levels', () => {
  it('code execution and URL context: request tools, and the code parts on the event', async () => {
    const server = await startFakeGemini({
      script: [{ codeExecution: { code: 'print(6 * 7)', output: '42\n' }, text: 'It is 42.' }],
    });
    try {
      const agent = new LlmAgent({
        name: 'coder',
        model: createModel(server.baseURL),
        tools: [codeExecutionTool(), urlContextTool()],
      });
      const events = await runAgent(agent, '6 * 7?', true);
      expect(events.at(-1)!.content?.parts).toEqual([
        { executableCode: { language: 'PYTHON', code: 'print(6 * 7)' } },
        { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '42\n' } },
        { text: 'It is 42.' },
      ]);
      expect((server.requests[0]!.body as Body).tools).toEqual([
        { codeExecution: {} },
        { urlContext: {} },
      ]);
    } finally {
      await server.close();
    }
  });

  it('sends a thinking level as is to Gemini 3, and as a budget to Gemini 2.5', async () => {
    const server = await startFakeGemini({ script: [{ text: 'a' }, { text: 'b' }] });
    try {
      for (const name of ['gemini-3-pro-preview', 'gemini-2.5-flash']) {
        const agent = new LlmAgent({
          name: 'leveled',
          model: createModel(server.baseURL, name),
          generateContentConfig: { thinkingConfig: { thinkingLevel: 'LOW' } },
        });
        await runAgent(agent, 'hi', false);
      }
      const configs = server.requests.map(
        (request) => (request.body as Body).generationConfig?.thinkingConfig,
      );
      expect(configs).toEqual([{ thinkingLevel: 'LOW' }, { thinkingBudget: 2048 }]);
    } finally {
      await server.close();
    }
  });

  it('a Gemini 1.x model cannot take provider tools: a typed error when the agent is built', () => {
    const model = createModel('http://127.0.0.1:9/v1beta', 'gemini-1.5-pro');
    expect(() => new LlmAgent({ name: 'old', model, tools: [webSearchTool()] })).toThrow(
      UnsupportedProviderToolError,
    );
  });

  it('provider tools next to function tools: refused for Gemini 2.x, flagged on the wire for Gemini 3', async () => {
    const lookup = new FunctionTool({
      name: 'lookup',
      description: 'Looks a word up.',
      parameters: { type: 'object', properties: { word: { type: 'string' } } },
      execute: () => ({ found: true }),
    });
    const old = createModel('http://127.0.0.1:9/v1beta', 'gemini-2.5-flash');
    expect(
      () => new LlmAgent({ name: 'mixed', model: old, tools: [webSearchTool(), lookup] }),
    ).toThrow(/cannot combine the provider-side tool "webSearch" with function tools/);
    const server = await startFakeGemini({ script: [{ text: 'ok' }] });
    try {
      const agent = new LlmAgent({
        name: 'mixed',
        model: createModel(server.baseURL, 'gemini-3-pro-preview'),
        tools: [webSearchTool(), lookup],
      });
      await runAgent(agent, 'hi', false);
      const body = server.requests[0]!.body as Body & { toolConfig?: Record<string, unknown> };
      expect(body.tools).toEqual([
        { functionDeclarations: [expect.objectContaining({ name: 'lookup' })] },
        { googleSearch: {} },
      ]);
      expect(body.toolConfig).toMatchObject({ includeServerSideToolInvocations: true });
    } finally {
      await server.close();
    }
  });

  it('reads Gemini API citationSources (and Vertex AI citations) as citationMetadata.citations', async () => {
    const candidate = (citationMetadata: unknown) => ({
      raw: {
        body: JSON.stringify({
          candidates: [
            {
              content: { role: 'model', parts: [{ text: 'Quoted text.' }] },
              finishReason: 'STOP',
              citationMetadata,
            },
          ],
        }),
      },
    });
    const source = { startIndex: 0, endIndex: 12, uri: 'https://example.com/q', license: 'mit' };
    const server = await startFakeGemini({
      script: [candidate({ citationSources: [source] }), candidate({ citations: [source] })],
    });
    try {
      for (const text of ['one', 'two']) {
        const agent = new LlmAgent({ name: 'quoter', model: createModel(server.baseURL) });
        const events = await runAgent(agent, text, false);
        expect(events.at(-1)!.citationMetadata).toEqual({ citations: [source] });
      }
    } finally {
      await server.close();
    }
  });
});
