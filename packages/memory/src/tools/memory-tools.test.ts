import {
  createEvent,
  createEventActions,
  InvalidArgumentError,
  type LlmRequest,
  type Session,
  type ToolContext,
} from '@adk/core';
import { beforeEach, describe, expect, it } from 'vitest';

import { InMemoryMemoryService } from '../in-memory';
import { loadMemoryTool } from './load-memory-tool';
import { preloadMemoryTool } from './preload-memory-tool';

const scope = { appName: 'app', userId: 'u', sessionId: 'current' };

function contextFor(memory: InMemoryMemoryService, userText = ''): ToolContext {
  return {
    invocationId: 'inv',
    agentName: 'agent',
    ...scope,
    branch: undefined,
    userContent: { role: 'user', parts: [{ text: userText }] },
    signal: new AbortController().signal,
    state: {
      get: () => undefined,
      has: () => false,
      toRecord: () => ({}),
      set: () => undefined,
      update: () => undefined,
    },
    actions: createEventActions(),
    functionCallId: 'call-1',
    toolConfirmation: undefined,
    requestConfirmation: () => undefined,
    getCredential: async () => undefined,
    requestCredential: () => undefined,
    loadArtifact: async () => undefined,
    saveArtifact: async () => 0,
    listArtifacts: async () => [],
    searchMemory: (query: string) =>
      memory.searchMemory({ appName: scope.appName, userId: scope.userId, query }),
  };
}

const past: Session = {
  id: 'past',
  appName: 'app',
  userId: 'u',
  state: {},
  lastUpdateTime: 0,
  events: [
    createEvent({
      invocationId: 'i',
      author: 'user',
      timestamp: Date.UTC(2025, 0, 2),
      content: { role: 'user', parts: [{ text: 'My sister lives in Porto' }] },
    }),
    createEvent({
      invocationId: 'i',
      author: 'travel_agent',
      timestamp: Date.UTC(2025, 0, 3),
      content: { role: 'model', parts: [{ text: 'Porto is lovely in spring' }] },
    }),
  ],
};

describe('memory tools', () => {
  let memory: InMemoryMemoryService;
  beforeEach(async () => {
    memory = new InMemoryMemoryService();
    await memory.addSessionToMemory(past);
  });

  it('load_memory declares a query and returns matching memories with author and time', async () => {
    expect(loadMemoryTool.declaration()).toMatchObject({
      name: 'load_memory',
      parameters: { required: ['query'] },
    });
    const result = await loadMemoryTool.run(
      { query: 'where does my sister live' },
      contextFor(memory),
    );
    expect(result).toEqual({
      memories: [
        { author: 'user', time: '2025-01-02T00:00:00.000Z', text: 'My sister lives in Porto' },
      ],
    });
    expect(await loadMemoryTool.run({ query: 'bicycle' }, contextFor(memory))).toEqual({
      memories: [],
    });
  });

  it('load_memory refuses a missing query', async () => {
    await expect(loadMemoryTool.run({}, contextFor(memory))).rejects.toSatisfy(
      InvalidArgumentError.isInstance,
    );
  });

  it('preload_memory is invisible to the model and cannot be called', async () => {
    expect(preloadMemoryTool.declaration()).toBeUndefined();
    await expect(preloadMemoryTool.run()).rejects.toSatisfy(InvalidArgumentError.isInstance);
  });

  it('preload_memory appends memories matching the user message to the system instruction', async () => {
    const request: LlmRequest = {
      model: 'm',
      systemInstruction: 'You are helpful.',
      contents: [],
      config: {},
    };
    await preloadMemoryTool.processRequest(contextFor(memory, 'Plan a weekend in Porto'), request);
    expect(request.systemInstruction).toMatch(/^You are helpful\.\n\n/);
    expect(request.systemInstruction).toContain('<PAST_CONVERSATIONS>');
    expect(request.systemInstruction).toContain(
      '[2025-01-02T00:00:00.000Z] user: My sister lives in Porto',
    );
    expect(request.systemInstruction).toContain(
      '[2025-01-03T00:00:00.000Z] travel_agent: Porto is lovely in spring',
    );
  });

  it('preload_memory leaves the request untouched when nothing is relevant', async () => {
    const request: LlmRequest = {
      model: 'm',
      systemInstruction: 'You are helpful.',
      contents: [],
      config: {},
    };
    await preloadMemoryTool.processRequest(contextFor(memory, 'Compute two plus two'), request);
    await preloadMemoryTool.processRequest(contextFor(memory, ''), request);
    expect(request.systemInstruction).toBe('You are helpful.');
  });
});
