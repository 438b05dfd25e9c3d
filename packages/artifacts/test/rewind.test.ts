import {
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  REWIND_ARTIFACT_METADATA_KEY,
  Runner,
  userContent,
} from '@adk/core';
import { FakeModel, fakeFunctionCall } from '@adk/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { artifactServices, collect } from './fixtures/services';

const services = await artifactServices('adk-artifacts-rewind-');

describe.each(services)('Runner.rewind restores artifacts (%s)', (_label, makeService) => {
  it('gives changed files their content of then, empties new ones, leaves user: files', async () => {
    const artifactService = await makeService();
    const save = new FunctionTool({
      name: 'save',
      description: 'Save a file.',
      parameters: z.object({ name: z.string(), text: z.string() }),
      execute: async ({ name, text }, tool) => ({
        version: await tool.saveArtifact(name, { text }),
      }),
    });
    // The user's message is "name=text": one save per turn, then a short answer.
    const model = new FakeModel({
      responses: (request, index) => {
        if (index % 2 === 1) return 'saved';
        const [name, text] = (request.contents.at(-1)?.parts[0]?.text ?? '').split('=');
        return fakeFunctionCall('save', { name, text }, `c${index}`);
      },
    });
    const appName = `rewind-${Math.random().toString(36).slice(2)}`;
    const runner = new Runner({
      appName,
      agent: new LlmAgent({ name: 'writer', model, tools: [save] }),
      sessionService: new InMemorySessionService(),
      artifactService,
      autoCreateSession: true,
    });
    const turn = { userId: 'u', sessionId: 's' };
    const say = (text: string) => collect(runner.run({ ...turn, newMessage: userContent(text) }));
    await say('notes.txt=first');
    const second = await say('notes.txt=second');
    await say('draft.txt=new file');
    await say('user:profile.txt=shared');

    const rewind = await runner.rewind({
      ...turn,
      rewindBeforeInvocationId: second[0]!.invocationId,
    });
    expect(rewind.actions.artifactDelta).toEqual({ 'notes.txt': 2, 'draft.txt': 1 });
    const scope = { appName, ...turn, sessionId: 's' };
    const load = (filename: string, version?: number) =>
      artifactService.loadArtifact({
        ...scope,
        filename,
        ...(version === undefined ? {} : { version }),
      });
    expect(await load('notes.txt')).toEqual({ text: 'first' });
    // The rewound version stays readable; the restore is marked in its metadata.
    expect(await load('notes.txt', 1)).toEqual({ text: 'second' });
    const restored = await artifactService.getArtifactVersion({ ...scope, filename: 'notes.txt' });
    expect(restored?.customMetadata).toEqual({
      [REWIND_ARTIFACT_METADATA_KEY]: second[0]!.invocationId,
    });
    // Did not exist before: an empty file, as Python ADK leaves it.
    expect(await load('draft.txt')).toMatchObject({
      inlineData: { mimeType: 'application/octet-stream', data: '' },
    });
    expect(await load('user:profile.txt')).toEqual({ text: 'shared' });
  });
});
