import {
  createEventActions,
  InvalidArgumentError,
  type LlmRequest,
  type Part,
  type ToolContext,
} from '@adk/core';
import { describe, expect, it } from 'vitest';

import { InMemoryArtifactService } from '../in-memory';
import { loadArtifactsTool } from './load-artifacts-tool';

const scope = { appName: 'app', userId: 'u', sessionId: 's' };

/** A tool context bound to an artifact service, as the runtime builds it. */
function contextFor(service: InMemoryArtifactService): ToolContext {
  const actions = createEventActions();
  return {
    invocationId: 'inv',
    agentName: 'agent',
    ...scope,
    branch: undefined,
    userContent: undefined,
    signal: new AbortController().signal,
    state: {
      get: () => undefined,
      has: () => false,
      toRecord: () => ({}),
      set: () => undefined,
      update: () => undefined,
    },
    actions,
    functionCallId: 'call-1',
    toolConfirmation: undefined,
    requestConfirmation: () => undefined,
    getCredential: async () => undefined,
    requestCredential: () => undefined,
    loadArtifact: (filename: string, version?: number) =>
      service.loadArtifact({ ...scope, filename, version }),
    saveArtifact: async (filename: string, artifact: Part) => {
      const version = await service.saveArtifact({ ...scope, filename, artifact });
      actions.artifactDelta[filename] = version;
      return version;
    },
    listArtifacts: () => service.listArtifactKeys(scope),
    searchMemory: async () => ({ memories: [] }),
  };
}

const png: Part = {
  inlineData: { mimeType: 'image/png', data: Buffer.from([137, 80, 78, 71]).toString('base64') },
};

describe('load_artifacts', () => {
  it('declares one array-of-names parameter', () => {
    expect(loadArtifactsTool.declaration()).toMatchObject({
      name: 'load_artifacts',
      parameters: { type: 'object', required: ['artifact_names'] },
    });
  });

  it('returns text artifacts in the response and flags missing ones', async () => {
    const service = new InMemoryArtifactService();
    await service.saveArtifact({ ...scope, filename: 'notes.md', artifact: { text: '# Notes' } });
    await service.saveArtifact({
      ...scope,
      filename: 'user:data.json',
      artifact: {
        inlineData: {
          mimeType: 'application/json',
          data: Buffer.from('{"a":1}').toString('base64'),
        },
      },
    });
    const result = await loadArtifactsTool.run(
      { artifact_names: ['notes.md', 'user:data.json', 'ghost.txt'] },
      contextFor(service),
    );
    expect(result).toEqual({
      artifacts: [
        { name: 'notes.md', found: true, mimeType: 'text/plain', text: '# Notes' },
        { name: 'user:data.json', found: true, mimeType: 'application/json', text: '{"a":1}' },
        { name: 'ghost.txt', found: false },
      ],
    });
  });

  it('refuses arguments that are not a list of names', async () => {
    const context = contextFor(new InMemoryArtifactService());
    for (const args of [{}, { artifact_names: 'notes.md' }, { artifact_names: [1] }]) {
      await expect(loadArtifactsTool.run(args, context)).rejects.toSatisfy(
        InvalidArgumentError.isInstance,
      );
    }
  });

  it('lists available artifacts in the system instruction, and nothing when there are none', async () => {
    const service = new InMemoryArtifactService();
    const empty: LlmRequest = {
      model: 'm',
      systemInstruction: 'Be brief.',
      contents: [],
      config: {},
    };
    await loadArtifactsTool.processRequest!(contextFor(service), empty);
    expect(empty.systemInstruction).toBe('Be brief.');
    await service.saveArtifact({ ...scope, filename: 'chart.png', artifact: png });
    await service.saveArtifact({ ...scope, filename: 'a.txt', artifact: { text: 'a' } });
    const request: LlmRequest = {
      model: 'm',
      systemInstruction: 'Be brief.',
      contents: [],
      config: {},
    };
    await loadArtifactsTool.processRequest!(contextFor(service), request);
    expect(request.systemInstruction).toContain('Be brief.');
    expect(request.systemInstruction).toContain('["a.txt","chart.png"]');
  });

  it('attaches binary artifacts named by the last load_artifacts response for the next model call', async () => {
    const service = new InMemoryArtifactService();
    await service.saveArtifact({ ...scope, filename: 'chart.png', artifact: png });
    const context = contextFor(service);
    const response = await loadArtifactsTool.run({ artifact_names: ['chart.png'] }, context);
    expect(response.artifacts[0]).toMatchObject({
      name: 'chart.png',
      found: true,
      mimeType: 'image/png',
    });
    const request: LlmRequest = {
      model: 'm',
      contents: [
        { role: 'user', parts: [{ text: 'describe the chart' }] },
        {
          role: 'model',
          parts: [
            {
              functionCall: {
                id: 'call-1',
                name: 'load_artifacts',
                args: { artifact_names: ['chart.png'] },
              },
            },
          ],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'call-1',
                name: 'load_artifacts',
                response: response as unknown as Record<string, unknown>,
              },
            },
          ],
        },
      ],
      config: {},
    };
    await loadArtifactsTool.processRequest!(context, request);
    expect(request.contents).toHaveLength(4);
    expect(request.contents[3]).toEqual({
      role: 'user',
      parts: [{ text: 'Artifact "chart.png":' }, png],
    });
  });
});
