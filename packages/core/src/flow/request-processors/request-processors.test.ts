import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { makeContext, TestArtifactService } from '../../../test/helpers';
import type { InvocationContext } from '../../agents/invocation-context';
import { LlmAgent, type LlmAgentOptions } from '../../agents/llm-agent';
import { modelContent, userContent } from '../../content';
import { InvocationReadonlyContext } from '../../context/invocation-contexts';
import { TemplateVariableError } from '../../errors/template-variable-error';
import { createEvent } from '../../events';
import type { LlmRequest } from '../../models';
import type { RunConfig } from '../../runner/run-config';
import { FunctionTool } from '../../tools/function-tool';
import type { Tool } from '../../tools/tool';
import { configProcessor } from './config-processor';
import { contentsProcessor } from './contents-processor';
import { buildRequest } from './default-processors';
import { identityProcessor } from './identity-processor';
import { instructionsProcessor } from './instructions-processor';
import { outputSchemaProcessor } from './output-schema-processor';
import { toolsProcessor } from './tools-processor';
import type { RequestProcessorInput } from './types';

const empty = (): LlmRequest => ({ model: 'm', contents: [], config: {} });

async function input(
  options: LlmAgentOptions,
  extra: {
    runConfig?: Partial<RunConfig>;
    state?: Record<string, unknown>;
    tools?: Tool[];
    ctx?: InvocationContext;
  } = {},
): Promise<RequestProcessorInput> {
  const agent = new LlmAgent(options);
  const ctx =
    extra.ctx ?? (await makeContext(agent, { runConfig: extra.runConfig, state: extra.state }));
  return {
    agent,
    invocationContext: ctx,
    context: new InvocationReadonlyContext(ctx),
    tools: extra.tools ?? [],
  };
}

/** A processor must not change what it is given. */
function frozen(request: LlmRequest): LlmRequest {
  return Object.freeze({
    ...request,
    config: Object.freeze({ ...request.config }),
    contents: Object.freeze([...request.contents]) as never,
  });
}

describe('configProcessor', () => {
  it("merges the agent's config with the run's overrides, key by key", async () => {
    const request = await configProcessor.process(
      frozen(empty()),
      await input(
        { name: 'a', generateContentConfig: { temperature: 0.7, maxOutputTokens: 100 } },
        { runConfig: { generateContentConfig: { temperature: 0.1, seed: 3 } } },
      ),
    );
    expect(request.config).toEqual({ temperature: 0.1, maxOutputTokens: 100, seed: 3 });
  });
});

describe('identityProcessor', () => {
  it('adds the name and description', async () => {
    const request = await identityProcessor.process(
      frozen(empty()),
      await input({ name: 'helper', description: 'Helps people.' }),
    );
    expect(request.systemInstruction).toBe('You are helper. Helps people.');
  });
});

describe('instructionsProcessor', () => {
  it('puts the global instruction first and the templated instruction after the identity', async () => {
    const child = new LlmAgent({ name: 'child', instruction: 'Greet {user:name}.' });
    const root = new LlmAgent({
      name: 'root',
      globalInstruction: 'Be polite.',
      subAgents: [child],
    });
    const ctx = await makeContext(child, { state: { 'user:name': 'Ada' } });
    void root;
    const base = await identityProcessor.process(empty(), {
      agent: child,
      invocationContext: ctx,
      context: new InvocationReadonlyContext(ctx),
      tools: [],
    });
    const request = await instructionsProcessor.process(frozen(base), {
      agent: child,
      invocationContext: ctx,
      context: new InvocationReadonlyContext(ctx),
      tools: [],
    });
    expect(request.systemInstruction).toBe('Be polite.\n\nYou are child.\n\nGreet Ada.');
  });

  it('calls instruction functions with the context and does not template their result', async () => {
    const request = await instructionsProcessor.process(
      frozen(empty()),
      await input({ name: 'a', instruction: async (ctx) => `User ${ctx.userId} said {literally}` }),
    );
    expect(request.systemInstruction).toBe('User u1 said {literally}');
  });

  it('throws TemplateVariableError for a missing variable', async () => {
    await expect(
      instructionsProcessor.process(empty(), await input({ name: 'a', instruction: 'Hi {who}' })),
    ).rejects.toThrow(TemplateVariableError);
  });

  it('loads {artifact.x} through the artifact service of the session', async () => {
    const artifacts = new TestArtifactService();
    await artifacts.saveArtifact({
      appName: 'test_app',
      userId: 'u1',
      sessionId: 's1',
      filename: 'style.md',
      artifact: { text: 'Short answers.' },
    });
    const agent = new LlmAgent({ name: 'a', instruction: 'Style: {artifact.style.md}' });
    const ctx = await makeContext(agent, { artifactService: artifacts });
    const request = await instructionsProcessor.process(empty(), {
      agent,
      invocationContext: ctx,
      context: new InvocationReadonlyContext(ctx),
      tools: [],
    });
    expect(request.systemInstruction).toBe('Style: Short answers.');
  });
});

describe('contentsProcessor', () => {
  it("builds the contents from the session's events", async () => {
    const agent = new LlmAgent({ name: 'a' });
    const ctx = await makeContext(agent, {
      events: [
        createEvent({ invocationId: 'e0', author: 'user', content: userContent('hello') }),
        createEvent({ invocationId: 'e0', author: 'a', content: modelContent('hi!') }),
      ],
    });
    const request = await contentsProcessor.process(frozen(empty()), {
      agent,
      invocationContext: ctx,
      context: new InvocationReadonlyContext(ctx),
      tools: [],
    });
    expect(request.contents).toEqual([userContent('hello'), modelContent('hi!')]);
  });
});

describe('toolsProcessor', () => {
  it('declares the tools and lets tools adjust a copy of the request', async () => {
    const plain = new FunctionTool({ name: 'plain', description: 'p', execute: () => 1 });
    const adjusting: Tool = {
      name: 'memory',
      description: 'm',
      declaration: () => undefined,
      run: async () => undefined,
      processRequest: (_ctx, request) => {
        request.systemInstruction = `${request.systemInstruction ?? ''}Past: tea.`;
      },
    };
    const original = frozen({ ...empty(), systemInstruction: 'Base. ' });
    const request = await toolsProcessor.process(
      original,
      await input({ name: 'a' }, { tools: [plain, adjusting] }),
    );
    expect(request.config.tools).toEqual([{ functionDeclarations: [plain.declaration()] }]);
    expect(request.systemInstruction).toBe('Base. Past: tea.');
    expect(original.systemInstruction).toBe('Base. ');
  });

  it('leaves a request without tools unchanged', async () => {
    const original = empty();
    expect(await toolsProcessor.process(original, await input({ name: 'a' }))).toBe(original);
  });
});

describe('outputSchemaProcessor', () => {
  it('asks for JSON following the schema', async () => {
    const request = await outputSchemaProcessor.process(
      frozen(empty()),
      await input({ name: 'a', outputSchema: z.object({ ok: z.boolean() }) }),
    );
    expect(request.config.responseMimeType).toBe('application/json');
    expect(request.config.responseSchema).toMatchObject({
      type: 'object',
      properties: { ok: { type: 'boolean' } },
    });
    expect(request.systemInstruction).toContain('Reply with valid JSON');
  });
});

describe('buildRequest', () => {
  it('runs the processors in order', async () => {
    const order: string[] = [];
    const step = (name: string) => ({
      name,
      process: async (request: LlmRequest) => {
        order.push(name);
        return { ...request, systemInstruction: `${request.systemInstruction ?? ''}${name}` };
      },
    });
    const request = await buildRequest('gpt', [step('a'), step('b')], await input({ name: 'x' }));
    expect(order).toEqual(['a', 'b']);
    expect(request).toEqual({ model: 'gpt', contents: [], config: {}, systemInstruction: 'ab' });
  });
});
