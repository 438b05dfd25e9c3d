import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { InvocationContext } from '../invocation/invocation-context';
import { LlmAgent } from '../agents/llm-agent';
import { modelContent, userContent } from '../content';
import { createEvent } from '../events';
import { Runner } from '../runner/runner';
import { FakeModel } from '../testing/fake-model';
import { FunctionTool } from '../tools/function-tool';
import { SET_MODEL_RESPONSE_INSTRUCTION } from './set-model-response-tool';
import { compileAgentInstruction } from './compile-agent-instruction';

describe('compileAgentInstruction', () => {
  it('is exactly what the request pipeline sends, with static and dynamic parts split', async () => {
    // A model that takes the response schema next to the tools (transfer_to_agent here).
    const model = new FakeModel({
      responses: ['{"ok":true}'],
      capabilities: { responseSchemaWithTools: true },
    });
    const specialist = new LlmAgent({
      name: 'specialist',
      description: 'Knows things.',
      model,
      instruction: 'The user is {user_name}.',
      outputSchema: z.object({ ok: z.boolean() }),
    });
    const peer = new LlmAgent({
      name: 'peer',
      description: 'Another one.',
      model: new FakeModel(),
    });
    const root = new LlmAgent({
      name: 'root',
      model: new FakeModel(),
      globalInstruction: 'Be brief.',
      subAgents: [specialist, peer],
    });
    const runner = new Runner({ appName: 'app', agent: root });
    const session = await runner.sessionService.createSession({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
      state: { user_name: 'Ada' },
    });
    // Talk to the specialist directly: make it the last author.
    const ctx = new InvocationContext({
      invocationId: 'i',
      agent: specialist,
      session,
      sessionService: runner.sessionService,
    });
    const compiled = await compileAgentInstruction(specialist, ctx);

    await runner.sessionService.appendEvent({
      session,
      event: createEvent({ invocationId: 'i0', author: 'specialist', content: modelContent('hi') }),
    });
    for await (const _ of runner.run({
      userId: 'u',
      sessionId: 's',
      newMessage: userContent('hello'),
    })) {
      // drain
    }
    expect(model.requests[0]?.systemInstruction).toBe(compiled.text);
    expect(compiled.sections.map((s) => s.kind)).toEqual([
      'global',
      'identity',
      'instruction',
      'output-schema',
      'transfer',
    ]);
    expect(compiled.dynamic).toBe('The user is Ada.');
    expect(
      compiled.static.startsWith(
        'Be brief.\n\nYou are specialist. Knows things.\n\nReply with valid JSON',
      ),
    ).toBe(true);
    expect(compiled.static).toContain('- root (your parent agent)\n- peer: Another one.');
  });

  it('asks for set_model_response, as the request does, when the model cannot combine schema and tools', async () => {
    const model = new FakeModel({ responses: ['{"ok":true}'] });
    const agent = new LlmAgent({
      name: 'reporter',
      model,
      outputSchema: z.object({ ok: z.boolean() }),
      tools: [new FunctionTool({ name: 'noop', description: 'Nothing.', execute: () => 'ok' })],
    });
    const runner = new Runner({ appName: 'app', agent, autoCreateSession: true });
    const session = await runner.sessionService.createSession({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
    });
    const ctx = new InvocationContext({
      invocationId: 'i',
      agent,
      session,
      sessionService: runner.sessionService,
    });
    const compiled = await compileAgentInstruction(agent, ctx);
    for await (const _ of runner.run({
      userId: 'u',
      sessionId: 's',
      newMessage: userContent('go'),
    })) {
      // drain
    }
    expect(model.requests[0]?.systemInstruction).toBe(compiled.text);
    expect(compiled.text).toBe(`You are reporter.\n\n${SET_MODEL_RESPONSE_INSTRUCTION}`);
  });
});
