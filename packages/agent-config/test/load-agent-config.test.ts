import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { LlmAgent, LoopAgent, Runner, userContent, type Event } from '@adk/core';
import type { FakeModel } from '@adk/core/testing';
import { describe, expect, it } from 'vitest';

import { AgentConfigError, agentConfigJsonSchema, loadAgentConfig } from '../src';

const agents = fileURLToPath(new URL('./fixtures/agents/', import.meta.url));

describe('loadAgentConfig', () => {
  it('builds the tree of root_agent.yaml: tools, callbacks, settings, sub-agents by file and by code', async () => {
    const root = (await loadAgentConfig(`${agents}helper/root_agent.yaml`)) as LlmAgent;
    expect(root).toBeInstanceOf(LlmAgent);
    expect(root.name).toBe('helper');
    expect(root.description).toBe('Answers weather questions and delegates writing.');
    expect(root.subAgents.map((agent) => agent.name)).toEqual(['writer', 'critic']);
    const writer = root.subAgents[0] as LoopAgent;
    expect(writer).toBeInstanceOf(LoopAgent);
    expect(writer.maxIterations).toBe(2);
    expect(writer.subAgents.map((agent) => agent.name)).toEqual(['drafter']);

    const runner = new Runner({ appName: 'helper', agent: root, autoCreateSession: true });
    const events: Event[] = [];
    for await (const event of runner.run({
      userId: 'u',
      sessionId: 's',
      newMessage: userContent('Weather?'),
    })) {
      events.push(event);
    }
    const responses = events.flatMap((event) =>
      (event.content?.parts ?? []).flatMap((part) =>
        part.functionResponse ? [part.functionResponse.response] : [],
      ),
    );
    expect(responses).toEqual([{ city: 'Paris', forecast: 'sunny' }, { zone: 'Europe/Paris' }]);
    expect(events.at(-1)?.actions.stateDelta).toMatchObject({ last_answer: 'Sunny in Paris.' });

    const model = (await import('./fixtures/agents/helper/models')).weather_model as FakeModel;
    const config = model.requests[0]!.config;
    expect(config).toMatchObject({
      temperature: 0.3,
      maxOutputTokens: 200,
      thinkingConfig: { thinkingBudget: 0 },
      providerOptions: {
        gemini: {
          safety_settings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
        },
      },
    });
    const { calls } = await import('./fixtures/agents/helper/callbacks');
    expect(calls).toEqual(['helper', 'helper']);
  });

  it.each([
    ['unknown-field.yaml', 5, /tools\.0\.argz: unknown field "argz"/],
    ['missing-instruction.yaml', 1, /instruction/],
    [
      'bad-ref.yaml',
      4,
      /tools\.0: cannot find the module "missing_module" of "missing_module\.some_tool"/,
    ],
    ['not-a-tool.yaml', 4, /"helper\.tools\.not_a_tool" is not a tool or toolset/],
    ['escape.yaml', 4, /leads outside the agent's folder/],
    ['dotdot.yaml', 4, /"\.\.\/helper\/tools\.not_a_tool" is not a code reference/],
    ['builtin-module.yaml', 4, /Node's built-in module "child_process"/],
    ['bad-yaml.yaml', 3, /invalid YAML/],
    ['wrong-type.yaml', 3, /max_iterations/],
  ])('refuses %s with the file and line', async (file, line, message) => {
    const error = await loadAgentConfig(`${agents}bad/${file}`).catch((caught: unknown) => caught);
    expect(AgentConfigError.isInstance(error), String(error)).toBe(true);
    expect((error as AgentConfigError).line).toBe(line);
    expect((error as AgentConfigError).message).toContain(`bad/${file}:${line}: `);
    expect((error as AgentConfigError).message).toMatch(message);
  });

  it('reads static_instruction: the instruction then travels in the conversation', async () => {
    const root = (await loadAgentConfig(`${agents}static/root_agent.yaml`)) as LlmAgent;
    expect(root.staticInstruction).toBe(
      'You are the front desk of the Grand Hotel. Prices are in euros.',
    );
    expect(root.instruction).toBe('The guest is in room {room}.');
  });

  it('ships a JSON Schema for editors that matches the loader', async () => {
    const shipped = JSON.parse(
      await readFile(new URL('../agent-config.schema.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(shipped).toEqual(agentConfigJsonSchema());
  });
});
