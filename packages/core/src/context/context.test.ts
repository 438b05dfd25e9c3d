import { describe, expect, it } from 'vitest';

import { makeContext, TestArtifactService } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { ServiceNotConfiguredError } from '../errors/service-not-configured-error';
import { createEventActions } from '../events';
import type { MemoryService } from '../memory';
import {
  InvocationCallbackContext,
  InvocationReadonlyContext,
  InvocationToolContext,
} from './invocation-contexts';
import { DeltaState, ReadonlyStateView } from './state-view';

const agent = new LlmAgent({ name: 'agent' });

describe('state views', () => {
  it('reads the pending delta first, then session state; writes only go to the delta', () => {
    const session = { state: { a: 1, b: 2 } as Record<string, unknown> };
    const delta: Record<string, unknown> = {};
    const state = new DeltaState(session, delta);
    state.set('b', 20);
    state.update({ c: 3, 'temp:x': 'scratch' });
    expect(state.get('a')).toBe(1);
    expect(state.get('b')).toBe(20);
    expect(state.has('c')).toBe(true);
    expect(state.has('zzz')).toBe(false);
    expect(session.state).toEqual({ a: 1, b: 2 });
    expect(delta).toEqual({ b: 20, c: 3, 'temp:x': 'scratch' });
    expect(state.toRecord()).toEqual({ a: 1, b: 20, c: 3, 'temp:x': 'scratch' });
  });

  it('a delta value of undefined or null still shadows the session', () => {
    const state = new DeltaState({ state: { a: 1 } }, {});
    state.set('a', null);
    expect(state.get('a')).toBeNull();
    expect(state.has('a')).toBe(true);
  });

  it('sees state committed after it was created (reads the live session)', () => {
    const session = { state: {} as Record<string, unknown> };
    const view = new ReadonlyStateView(session);
    session.state = { later: true };
    expect(view.get('later')).toBe(true);
  });
});

describe('invocation contexts', () => {
  it('expose the identity of the run', async () => {
    const ctx = await makeContext(agent, { branch: 'par.a' });
    const context = new InvocationReadonlyContext(ctx);
    expect({
      invocationId: context.invocationId,
      agentName: context.agentName,
      appName: context.appName,
      userId: context.userId,
      sessionId: context.sessionId,
      branch: context.branch,
      text: context.userContent?.parts[0]?.text,
      aborted: context.signal.aborted,
    }).toEqual({
      invocationId: 'e-test',
      agentName: 'agent',
      appName: 'test_app',
      userId: 'u1',
      sessionId: 's1',
      branch: 'par.a',
      text: 'hi',
      aborted: false,
    });
  });

  it('save artifacts scoped to the session, recording artifactDelta', async () => {
    const artifacts = new TestArtifactService();
    const ctx = await makeContext(agent, { artifactService: artifacts });
    const actions = createEventActions();
    const context = new InvocationCallbackContext(ctx, actions);
    expect(await context.saveArtifact('report.txt', { text: 'v0' })).toBe(0);
    expect(await context.saveArtifact('report.txt', { text: 'v1' })).toBe(1);
    expect(actions.artifactDelta).toEqual({ 'report.txt': 1 });
    expect(await context.loadArtifact('report.txt')).toEqual({ text: 'v1' });
    expect(await context.loadArtifact('report.txt', 0)).toEqual({ text: 'v0' });
    expect(await context.listArtifacts()).toEqual(['report.txt']);
    expect([...artifacts.files.keys()]).toEqual(['test_app/u1/s1/report.txt']);
  });

  it('search memory for the app and user', async () => {
    const requests: unknown[] = [];
    const memory: MemoryService = {
      addSessionToMemory: async () => undefined,
      searchMemory: async (request) => {
        requests.push(request);
        return { memories: [{ content: { role: 'user', parts: [{ text: 'I like tea' }] } }] };
      },
    };
    const ctx = await makeContext(agent, { memoryService: memory });
    const result = await new InvocationCallbackContext(ctx, createEventActions()).searchMemory(
      'tea',
    );
    expect(result.memories).toHaveLength(1);
    expect(requests).toEqual([{ appName: 'test_app', userId: 'u1', query: 'tea' }]);
  });

  it('fail with a typed error when a service is not configured', async () => {
    const ctx = await makeContext(agent);
    const context = new InvocationCallbackContext(ctx, createEventActions());
    await expect(context.saveArtifact('a.txt', { text: 'x' })).rejects.toSatisfy(
      (e) =>
        ServiceNotConfiguredError.isInstance(e) &&
        (e as ServiceNotConfiguredError).service === 'artifactService',
    );
    await expect(context.loadArtifact('a.txt')).rejects.toThrow(/artifactService/);
    await expect(context.searchMemory('q')).rejects.toThrow(/memoryService/);
  });

  it('record a confirmation request for the function call', async () => {
    const ctx = await makeContext(agent);
    const actions = createEventActions();
    const tool = new InvocationToolContext(ctx, actions, 'call-7');
    expect(tool.functionCallId).toBe('call-7');
    expect(tool.toolConfirmation).toBeUndefined();
    tool.requestConfirmation({ hint: 'Transfer 500 EUR?', payload: { amount: 500 } });
    expect(actions.requestedToolConfirmations).toEqual({
      'call-7': { hint: 'Transfer 500 EUR?', confirmed: false, payload: { amount: 500 } },
    });
    tool.state.set('x', 1);
    expect(actions.stateDelta).toEqual({ x: 1 });
  });
});
