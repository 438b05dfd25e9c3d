import { LlmAgent, Runner, userContent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { afterEach, describe, expect, it } from 'vitest';

import { LoadMcpResourceTool, McpToolset, mcpPromptInstruction } from '../src';
import { everythingServer, toolContext } from './helpers/servers';

const open: McpToolset[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((toolset) => toolset.close()));
});

function everything(): McpToolset {
  const toolset = new McpToolset({ name: 'everything', connection: everythingServer() });
  open.push(toolset);
  return toolset;
}

describe('LoadMcpResourceTool', () => {
  it('lists the resources without a uri and reads one with it, on the shared connection', async () => {
    const toolset = everything();
    await toolset.getTools(toolContext());
    const pid = toolset.connection.pid;
    const load = new LoadMcpResourceTool(toolset, { maxListed: 50 });
    expect(load.declaration().name).toBe('load_mcp_resource');

    const listed = (await load.run({}, toolContext())) as {
      resources: { uri: string; name: string }[];
    };
    expect(listed.resources.length).toBeGreaterThan(0);
    expect(listed.resources.length).toBeLessThanOrEqual(50);
    const document = listed.resources.find((r) =>
      r.uri.startsWith('demo://resource/static/document/'),
    );
    expect(document).toBeDefined();

    const read = (await load.run({ uri: document!.uri }, toolContext())) as {
      contents: { uri: string; text?: string }[];
    };
    expect(read.contents[0]).toMatchObject({ uri: document!.uri, text: expect.any(String) });
    expect(read.contents[0]!.text!.length).toBeGreaterThan(0);
    expect(toolset.connection.pid).toBe(pid);
  });

  it('reports an unknown resource as a typed request error', async () => {
    const load = new LoadMcpResourceTool(everything());
    const error = await load.run({ uri: 'demo://nowhere' }, toolContext()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MCP_REQUEST_FAILED' });
    expect((error as Error).message).toContain('demo://nowhere');
  });
});

describe('mcpPromptInstruction', () => {
  it("makes a server prompt the agent's instruction, with arguments from the session state", async () => {
    const toolset = everything();
    const model = new FakeModel({ responses: ['Sunny.'] });
    const agent = new LlmAgent({
      name: 'forecaster',
      model,
      instruction: mcpPromptInstruction(toolset, 'args-prompt', (context) => ({
        city: String(context.state.get('city')),
      })),
    });
    const runner = new Runner({ appName: 'prompts', agent, autoCreateSession: true });
    for await (const _event of runner.run({
      userId: 'u',
      sessionId: 's',
      newMessage: userContent('Weather?'),
      stateDelta: { city: 'Lyon' },
    }));
    expect(model.requests[0]!.systemInstruction).toContain("What's weather in Lyon?");
    await runner.close();
  });
});
