import { A2aClient, contentToA2aMessage, Role, TaskState, type Task } from '@adk/a2a';
import { userContent } from '@adk/core';
import { InMemorySessionService, LlmAgent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { afterEach, describe, expect, it } from 'vitest';

import { createAdkServer, listen, type AdkServerA2aOptions, type RunningServer } from '../src';

let running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.map((server) => server.close()));
  running = [];
});

function build(a2a: AdkServerA2aOptions) {
  const agent = new LlmAgent({
    name: 'alpha',
    model: new FakeModel({ responses: () => 'alpha heard you' }),
  });
  return createAdkServer({
    apps: { alpha: { agent } },
    sessionService: new InMemorySessionService(),
    a2a,
  });
}

async function cardOf(a2a: AdkServerA2aOptions, path: string) {
  const server = await listen(build(a2a), { port: 0 });
  running.push(server);
  const card = (await (await fetch(`${server.url}${path}`)).json()) as Record<string, unknown>;
  return { server, card };
}

describe('A2A routes behind a reverse proxy (a2a.publicUrl)', () => {
  it('cards name the endpoint under publicUrl, the base path included', async () => {
    const { card } = await cardOf(
      { publicUrl: 'https://agents.example.com/adk/' },
      '/a2a/alpha/.well-known/agent-card.json',
    );
    expect(card.url).toBe('https://agents.example.com/adk/a2a/alpha');
    const custom = await cardOf(
      { publicUrl: 'https://agents.example.com', basePath: '/agents' },
      '/agents/alpha/.well-known/agent.json',
    );
    expect(custom.card.url).toBe('https://agents.example.com/agents/alpha');
  });

  it('interfaces set for the app still win, and the endpoint still answers locally', async () => {
    const { server, card } = await cardOf(
      {
        publicUrl: 'https://agents.example.com',
        agentCards: {
          alpha: {
            supportedInterfaces: ['1.0', '0.3'].map((protocolVersion) => ({
              url: 'https://alpha.example.com/rpc',
              protocolBinding: 'JSONRPC',
              protocolVersion,
              tenant: '',
            })),
          },
        },
      },
      '/a2a/alpha/.well-known/agent-card.json',
    );
    expect(card.url).toBe('https://alpha.example.com/rpc');
    const client = await A2aClient.fromUrl(`${server.url}/a2a/alpha`);
    expect(client.card.name).toBe('alpha');
    const local = await A2aClient.fromCard({
      ...client.card,
      supportedInterfaces: [
        {
          url: `${server.url}/a2a/alpha`,
          protocolBinding: 'JSONRPC',
          protocolVersion: '1.0',
          tenant: '',
        },
      ],
    });
    const task = (await local.sendMessage({
      message: contentToA2aMessage(userContent('hi'), Role.ROLE_USER)!,
    })) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('refuses a publicUrl that is not an absolute http(s) URL with InvalidArgumentError', () => {
    for (const publicUrl of [
      'agents.example.com',
      'ftp://agents.example.com',
      'https://x.example/?a=1',
    ]) {
      expect(() => build({ publicUrl })).toThrow(
        expect.objectContaining({ name: 'InvalidArgumentError' }),
      );
    }
  });
});
