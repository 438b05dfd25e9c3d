import {
  FunctionTool,
  getText,
  InMemorySessionService,
  LlmAgent,
  Runner,
  userContent,
} from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { loadArtifactsTool } from '../src';
import { artifactServices, collect } from './fixtures/services';

const services = await artifactServices('adk-artifacts-run-');

describe.each(services)('artifacts in a real run (%s)', (_label, makeService) => {
  it('records artifactDelta on the tool event when a tool saves, and stores the event', async () => {
    const artifactService = await makeService();
    const sessionService = new InMemorySessionService();
    const writeReport = new FunctionTool({
      name: 'write_report',
      description: 'Writes the report.',
      parameters: z.object({ body: z.string() }),
      execute: async ({ body }, ctx) => ({
        version: await ctx.saveArtifact('report.md', { text: body }),
      }),
    });
    const model = new FakeModel([
      { functionCalls: [{ name: 'write_report', args: { body: '# Q3' } }] },
      'Report written.',
      { functionCalls: [{ name: 'write_report', args: { body: '# Q3 (revised)' } }] },
      'Report revised.',
    ]);
    const agent = new LlmAgent({ name: 'writer', model, tools: [writeReport] });
    const runner = new Runner({
      appName: 'reports',
      agent,
      sessionService,
      artifactService,
      autoCreateSession: true,
    });
    const ask = (text: string) =>
      collect(runner.run({ userId: 'u', sessionId: 's', newMessage: userContent(text) }));

    const first = await ask('write it');
    const toolEvent = first.find((e) => e.content?.parts[0]?.functionResponse)!;
    expect(toolEvent.actions.artifactDelta).toEqual({ 'report.md': 0 });
    await ask('revise it');
    const session = await sessionService.getSession({
      appName: 'reports',
      userId: 'u',
      sessionId: 's',
    });
    const deltas = session!.events
      .map((e) => e.actions.artifactDelta)
      .filter((d) => Object.keys(d).length > 0);
    expect(deltas).toEqual([{ 'report.md': 0 }, { 'report.md': 1 }]);
    expect(
      await artifactService.loadArtifact({
        appName: 'reports',
        userId: 'u',
        sessionId: 's',
        filename: 'report.md',
      }),
    ).toEqual({
      text: '# Q3 (revised)',
    });
  });

  it('fills {artifact.name} in instructions with the latest version, user: artifacts included', async () => {
    const artifactService = await makeService();
    const scope = { appName: 'styled', userId: 'u', sessionId: 's' };
    await artifactService.saveArtifact({
      ...scope,
      filename: 'style.txt',
      artifact: { text: 'old style' },
    });
    await artifactService.saveArtifact({
      ...scope,
      filename: 'style.txt',
      artifact: { text: 'Write in haiku.' },
    });
    await artifactService.saveArtifact({
      ...scope,
      sessionId: 'other',
      filename: 'user:name.txt',
      artifact: { text: 'Ada' },
    });
    const model = new FakeModel(['ok']);
    const agent = new LlmAgent({
      name: 'poet',
      model,
      instruction: '{artifact.style.txt} Address {artifact.user:name.txt}.',
    });
    const runner = new Runner({
      appName: 'styled',
      agent,
      artifactService,
      autoCreateSession: true,
    });
    await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('hi') }));
    expect(model.requests[0]!.systemInstruction).toContain('Write in haiku. Address Ada.');
  });

  it('lets the model list and load artifacts with load_artifacts, images attached for the next call', async () => {
    const artifactService = await makeService();
    const scope = { appName: 'reader', userId: 'u', sessionId: 's' };
    const png = {
      inlineData: {
        mimeType: 'image/png',
        data: Buffer.from([137, 80, 78, 71, 1, 2]).toString('base64'),
      },
    };
    await artifactService.saveArtifact({ ...scope, filename: 'chart.png', artifact: png });
    await artifactService.saveArtifact({
      ...scope,
      filename: 'notes.md',
      artifact: { text: 'Sales up 12%' },
    });
    const model = new FakeModel([
      {
        functionCalls: [
          { name: 'load_artifacts', args: { artifact_names: ['notes.md', 'chart.png'] } },
        ],
      },
      'Sales are up 12% and the chart shows it.',
    ]);
    const agent = new LlmAgent({ name: 'analyst', model, tools: [loadArtifactsTool] });
    const runner = new Runner({
      appName: 'reader',
      agent,
      artifactService,
      autoCreateSession: true,
    });
    const events = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('How are sales?') }),
    );

    expect(model.requests[0]!.systemInstruction).toContain('["chart.png","notes.md"]');
    expect(model.requests[0]!.config.tools?.[0]?.functionDeclarations.map((d) => d.name)).toContain(
      'load_artifacts',
    );
    const response = events.find((e) => e.content?.parts[0]?.functionResponse)!.content!.parts[0]!
      .functionResponse!.response;
    expect(response).toEqual({
      artifacts: [
        { name: 'notes.md', found: true, mimeType: 'text/plain', text: 'Sales up 12%' },
        {
          name: 'chart.png',
          found: true,
          mimeType: 'image/png',
          note: 'Binary content attached to the conversation.',
        },
      ],
    });
    const second = model.requests[1]!;
    expect(second.contents.at(-1)).toEqual({
      role: 'user',
      parts: [{ text: 'Artifact "chart.png":' }, png],
    });
    expect(getText(events.at(-1)!.content)).toBe('Sales are up 12% and the chart shows it.');
  });
});
