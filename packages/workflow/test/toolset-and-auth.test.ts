import {
  credentialResponse,
  FunctionTool,
  getFunctionCalls,
  InMemoryCredentialService,
  InMemorySessionService,
  REQUEST_CREDENTIAL_FUNCTION_NAME,
  Runner,
  type AuthConfig,
  type CredentialRequestArgs,
  type ReadonlyContext,
  type Tool,
  type Toolset,
} from '@adk/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { node, START, ToolsetNode, Workflow, type NodeContext } from '../src';
import { outputs, turn, workflowOutput } from './helpers';

/** A toolset whose tools are only known once listed (as an MCP server's). */
class CountingToolset implements Toolset {
  readonly name = 'weather';
  listed = 0;
  async getTools(_context: ReadonlyContext): Promise<Tool[]> {
    this.listed++;
    return [
      new FunctionTool({
        name: 'get-forecast',
        description: 'The forecast of a city.',
        parameters: z.object({ city: z.string() }),
        execute: ({ city }) => ({ city, forecast: 'sunny' }),
      }),
    ];
  }
}

describe("ToolsetNode (Python's ToolsetNode)", () => {
  it('resolves the tool from its toolset when it runs; its name defaults to an identifier', async () => {
    const toolset = new CountingToolset();
    const forecast = new ToolsetNode({ toolset, toolName: 'get-forecast' });
    expect(forecast.name).toBe('get_forecast');
    expect(toolset.listed).toBe(0);
    const city = () => ({ city: 'Paris' });
    const runner = new Runner({
      appName: 'app',
      agent: new Workflow({ name: 'wf', edges: [[START, city, forecast]] }),
      sessionService: new InMemorySessionService(),
      autoCreateSession: true,
    });
    const events = await turn(runner, 'go');
    expect(workflowOutput(events)).toEqual({ city: 'Paris', forecast: 'sunny' });
    expect(toolset.listed).toBe(1);
  });

  it('a tool the toolset does not offer fails the node with the names it offers', async () => {
    const missing = new ToolsetNode({ toolset: new CountingToolset(), toolName: 'nope' });
    const runner = new Runner({
      appName: 'app',
      agent: new Workflow({ name: 'wf', edges: [[START, missing]] }),
      sessionService: new InMemorySessionService(),
      autoCreateSession: true,
    });
    const events = await turn(runner, '{}');
    const failed = events.find((event) => event.errorCode !== undefined);
    expect(failed?.errorMessage).toContain('get-forecast');
  });
});

const apiAuth: AuthConfig = {
  authScheme: { type: 'http', scheme: 'bearer' },
  credentialKey: 'reports-api',
};

describe("node-level authConfig (Python's auth_config), through core's credential flow", () => {
  it('asks for the credential with adk_request_credential, then runs with it (stored for later runs)', async () => {
    const seen: unknown[] = [];
    const report = node(
      (_: unknown, ctx: NodeContext) => {
        seen.push(ctx.credential?.http?.credentials.token);
        return `report with ${String(ctx.credential?.http?.credentials.token)}`;
      },
      { name: 'report', authConfig: apiAuth },
    );
    const credentialService = new InMemoryCredentialService();
    const runner = new Runner({
      appName: 'app',
      agent: new Workflow({ name: 'wf', edges: [[START, report]] }),
      sessionService: new InMemorySessionService(),
      credentialService,
      autoCreateSession: true,
    });
    const first = await turn(runner, 'go');
    const request = first
      .flatMap((event) => getFunctionCalls(event.content))
      .find((call) => call.name === REQUEST_CREDENTIAL_FUNCTION_NAME);
    expect(request?.id).toBeDefined();
    expect(seen).toEqual([]);
    expect(outputs(first)).toEqual([]);
    const { authConfig } = request?.args as unknown as CredentialRequestArgs;
    const second = await turn(
      runner,
      credentialResponse(request?.id as string, {
        ...authConfig,
        exchangedAuthCredential: {
          authType: 'http',
          http: { scheme: 'bearer', credentials: { token: 'tok-1' } },
        },
      }),
    );
    expect(workflowOutput(second)).toBe('report with tok-1');
    // The next run finds the stored credential: no request.
    const third = await turn(runner, 'again');
    expect(workflowOutput(third)).toBe('report with tok-1');
    expect(seen).toEqual(['tok-1', 'tok-1']);
  });
});
