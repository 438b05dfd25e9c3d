import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { setup } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { UnsupportedProviderToolError } from '../errors/unsupported-provider-tool-error';
import { ModelRegistry } from '../models/model-registry';
import { Runner } from '../runner/runner';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { userContent } from '../content';
import { FakeModel } from '../testing/fake-model';
import type { Tool, Toolset } from './tool';
import { FunctionTool } from './function-tool';
import { codeExecutionTool, urlContextTool, webSearchTool } from './provider-tool';

describe('provider tools', () => {
  it('go to the request as config.providerTools, with no function declaration', async () => {
    const model = new FakeModel({
      responses: ['found it'],
      capabilities: { providerTools: ['webSearch', 'urlContext', 'codeExecution'] },
    });
    const agent = new LlmAgent({
      name: 'researcher',
      model,
      tools: [webSearchTool({ max_uses: 2 }), urlContextTool(), codeExecutionTool()],
    });
    const { run } = await setup(agent);
    await run('search');
    const config = model.requests[0]!.config;
    expect(config.providerTools).toEqual([
      { type: 'webSearch', options: { max_uses: 2 } },
      { type: 'urlContext' },
      { type: 'codeExecution' },
    ]);
    expect(config.tools ?? []).toEqual([]);
  });

  it('a model that cannot take the tool fails when the agent is built, with a typed error', () => {
    const model = new FakeModel({ name: 'plain', capabilities: { providerTools: ['webSearch'] } });
    let error: unknown;
    try {
      new LlmAgent({ name: 'coder', model, tools: [webSearchTool(), codeExecutionTool()] });
    } catch (caught) {
      error = caught;
    }
    expect(UnsupportedProviderToolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'UnsupportedProviderToolError',
      code: 'UNSUPPORTED_PROVIDER_TOOL',
      modelName: 'plain',
      toolType: 'codeExecution',
      supported: ['webSearch'],
    });
    expect((error as Error).message).toContain('Agent "coder"');
  });

  it('a model named by string fails when first resolved, before any request is sent', async () => {
    const model = new FakeModel({ name: 'no-tools-model', responses: ['never'] });
    const registry = new ModelRegistry();
    registry.register(model.asProvider());
    const agent = new LlmAgent({
      name: 'searcher',
      model: 'no-tools-model',
      tools: [webSearchTool()],
    });
    expect(() => agent.resolveModel(registry)).toThrow(UnsupportedProviderToolError);

    const sessionService = new InMemorySessionService();
    await sessionService.createSession({ appName: 'a', userId: 'u', sessionId: 's' });
    const runner = new Runner({ appName: 'a', agent, sessionService, models: registry });
    const events = [];
    for await (const event of runner.run({
      userId: 'u',
      sessionId: 's',
      newMessage: userContent('go'),
    }))
      events.push(event);
    expect(model.requests).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ errorCode: 'UNSUPPORTED_PROVIDER_TOOL' });
  });

  it('a provider tool from a toolset is checked per request, before the model is called', async () => {
    const model = new FakeModel({ responses: ['never'] });
    const toolset: Toolset = {
      name: 'search_set',
      getTools: async () => [webSearchTool() as Tool],
    };
    const agent = new LlmAgent({ name: 'dynamic', model, tools: [toolset] });
    const { run } = await setup(agent);
    const events = await run('go');
    expect(model.requests).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({
      errorCode: 'UNSUPPORTED_PROVIDER_TOOL',
      errorMessage: expect.stringContaining('"webSearch"'),
    });
  });

  it('a model that takes a provider tool but not next to function tools fails too, with the reason', async () => {
    const lookup = new FunctionTool({
      name: 'lookup',
      description: 'Looks up.',
      parameters: z.object({ key: z.string() }),
      execute: () => ({}),
    });
    const alone = new FakeModel({ name: 'alone', capabilities: { providerTools: ['webSearch'] } });
    let error: unknown;
    try {
      new LlmAgent({ name: 'mixed', model: alone, tools: [webSearchTool(), lookup] });
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'UNSUPPORTED_PROVIDER_TOOL', reason: 'with-functions' });
    expect((error as Error).message).toContain('cannot combine the provider-side tool "webSearch"');

    // The transfer tool counts too: checked on the request, before the model is called.
    const child = new LlmAgent({ name: 'child', model: alone });
    const parent = new LlmAgent({
      name: 'parent',
      model: alone,
      tools: [webSearchTool()],
      subAgents: [child],
    });
    const { run } = await setup(parent);
    const events = await run('go');
    expect(alone.requests).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ errorCode: 'UNSUPPORTED_PROVIDER_TOOL' });

    const both = new FakeModel({
      responses: ['ok'],
      capabilities: { providerTools: ['webSearch'], providerToolsWithFunctions: true },
    });
    const agent = new LlmAgent({ name: 'combined', model: both, tools: [webSearchTool(), lookup] });
    const { run: runBoth } = await setup(agent);
    await runBoth('go');
    expect(both.requests[0]!.config.providerTools).toEqual([{ type: 'webSearch' }]);
    expect(both.requests[0]!.config.tools?.[0]?.functionDeclarations.map((d) => d.name)).toEqual([
      'lookup',
    ]);
  });
});
