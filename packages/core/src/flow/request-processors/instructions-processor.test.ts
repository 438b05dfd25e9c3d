import { describe, expect, it } from 'vitest';

import { empty, input, frozen } from '../../../test/processor-helpers';
import { makeContext, TestArtifactService } from '../../../test/helpers';
import { LlmAgent } from '../../agents/llm-agent';
import { InvocationReadonlyContext } from '../../context/invocation-contexts';
import { TemplateVariableError } from '../../errors/template-variable-error';
import { identityProcessor } from './identity-processor';
import { instructionsProcessor } from './instructions-processor';

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
