import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { LlmAgent } from './llm-agent';
import type {
  ArtifactFileRequest,
  ArtifactScope,
  ArtifactService,
  ArtifactVersion,
  LoadArtifactRequest,
  SaveArtifactRequest,
} from '../artifacts';
import { getText, userContent, type Part } from '../content';
import type { Event } from '../events';
import { ModelRegistry } from '../models/model-registry';
import { Runner } from '../runner/runner';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { AgentTool } from './agent-tool';
import { FunctionTool } from '../tools/function-tool';

/** A small artifact store for the test: versions per session-scoped file name. */
class MapArtifacts implements ArtifactService {
  readonly files = new Map<string, Part[]>();
  #key(scope: ArtifactScope, filename: string): string {
    return `${scope.appName}/${scope.userId}/${scope.sessionId}/${filename}`;
  }
  async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    const key = this.#key(request, request.filename);
    const versions = this.files.get(key) ?? [];
    versions.push(request.artifact);
    this.files.set(key, versions);
    return versions.length - 1;
  }
  async loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined> {
    const versions = this.files.get(this.#key(request, request.filename)) ?? [];
    return versions[request.version ?? versions.length - 1];
  }
  async listArtifactKeys(scope: ArtifactScope): Promise<string[]> {
    const prefix = this.#key(scope, '');
    return [...this.files.keys()]
      .filter((k) => k.startsWith(prefix))
      .map((k) => k.slice(prefix.length));
  }
  async deleteArtifact(request: ArtifactFileRequest): Promise<void> {
    this.files.delete(this.#key(request, request.filename));
  }
  async listVersions(request: ArtifactFileRequest): Promise<number[]> {
    return (this.files.get(this.#key(request, request.filename)) ?? []).map((_, i) => i);
  }
  async listArtifactVersions(): Promise<ArtifactVersion[]> {
    return [];
  }
  async getArtifactVersion(): Promise<ArtifactVersion | undefined> {
    return undefined;
  }
}

async function collect(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

function setup(options: { skipSummarization?: boolean } = {}) {
  const saveNote = new FunctionTool({
    name: 'save_note',
    description: 'Save a note.',
    parameters: z.object({ text: z.string() }),
    execute: async ({ text }, ctx) => {
      ctx.state.set('last_note', text);
      ctx.state.set('temp:scratch', 'never leaves the child');
      await ctx.saveArtifact('note.txt', { text });
      return { saved: true };
    },
  });
  const helperModel = new FakeModel({
    name: 'helper-model',
    responses: (request, index) =>
      index % 2 === 0
        ? fakeFunctionCall('save_note', { text: `note ${index / 2 + 1}` }, `h${index}`)
        : `Saved: ${request.contents.length} contents seen`,
  });
  const helper = new LlmAgent({
    name: 'helper',
    description: 'Saves notes.',
    model: helperModel,
    instruction: 'The user is {user_name}.',
    tools: [saveNote],
  });
  const mainModel = new FakeModel({
    name: 'main-model',
    responses: [
      fakeFunctionCall('helper', { request: 'remember milk' }, 'm1'),
      'Noted.',
      fakeFunctionCall('helper', { request: 'remember eggs' }, 'm2'),
      'Noted again.',
    ],
  });
  const main = new LlmAgent({
    name: 'main',
    model: mainModel,
    tools: [new AgentTool(helper, options)],
  });
  const artifacts = new MapArtifacts();
  const runner = new Runner({
    appName: 'app',
    agent: main,
    artifactService: artifacts,
    autoCreateSession: true,
  });
  return { runner, helperModel, mainModel, artifacts };
}

describe('AgentTool', () => {
  it('runs the agent in an isolated session and propagates state and artifacts to the caller’s event', async () => {
    const { runner, helperModel, artifacts } = setup();
    const session = await runner.sessionService.createSession({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
      state: { user_name: 'Ada' },
    });
    const events = await collect(
      runner.run({ userId: 'u', sessionId: session.id, newMessage: userContent('milk') }),
    );
    const response = events.find((e) => e.content?.parts[0]?.functionResponse);
    expect(response?.author).toBe('main');
    expect(response?.content?.parts[0]?.functionResponse?.response).toEqual({
      result: 'Saved: 3 contents seen',
    });
    expect(response?.actions.stateDelta).toEqual({ last_note: 'note 1' });
    expect(response?.actions.artifactDelta).toEqual({ 'note.txt': 0 });
    expect(artifacts.files.get('app/u/s/note.txt')).toEqual([{ text: 'note 1' }]);
    // The child saw the caller's state (templated instruction) but none of its history.
    expect(helperModel.requests[0]?.systemInstruction).toContain('The user is Ada.');
    expect(helperModel.requests[0]?.contents).toEqual([
      { role: 'user', parts: [{ text: 'remember milk' }] },
    ]);
    const stored = await runner.sessionService.getSession({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
    });
    expect(stored?.state.last_note).toBe('note 1');
    expect(stored?.state['temp:scratch']).toBeUndefined();
    expect(stored?.events.some((e) => e.author === 'helper')).toBe(false);
  });

  it('does not accumulate history across calls', async () => {
    const { runner, helperModel } = setup();
    await runner.sessionService.createSession({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
      state: { user_name: 'Ada' },
    });
    await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('milk') }));
    await collect(runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('eggs') }));
    expect(helperModel.requests).toHaveLength(4);
    expect(helperModel.requests[2]?.contents).toEqual([
      { role: 'user', parts: [{ text: 'remember eggs' }] },
    ]);
    expect(helperModel.requests[3]?.contents).toHaveLength(3);
  });

  it('honours skipSummarization: the child’s answer ends the caller’s turn', async () => {
    const { runner, mainModel } = setup({ skipSummarization: true });
    await runner.sessionService.createSession({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
      state: { user_name: 'Ada' },
    });
    const events = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('milk') }),
    );
    expect(mainModel.requests).toHaveLength(1);
    expect(events.at(-1)?.actions.skipSummarization).toBe(true);
  });

  it('returns structured output and reports a failing child as a tool error', async () => {
    const extractor = new LlmAgent({
      name: 'extractor',
      model: new FakeModel({ responses: ['{"city":"Paris"}'] }),
      outputSchema: z.object({ city: z.string() }),
    });
    const broken = new LlmAgent({
      name: 'broken',
      model: new FakeModel({ responses: [new Error('boom')] }),
    });
    const mainModel = new FakeModel({
      responses: [
        fakeFunctionCall('extractor', { request: 'I live in Paris' }, 'x1'),
        fakeFunctionCall('broken', { request: 'hi' }, 'x2'),
        'done',
      ],
    });
    const main = new LlmAgent({
      name: 'main',
      model: mainModel,
      tools: [new AgentTool(extractor), new AgentTool(broken)],
    });
    const runner = new Runner({ appName: 'app', agent: main, autoCreateSession: true });
    const events = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('go') }),
    );
    const responses = events.flatMap(
      (e) =>
        e.content?.parts.flatMap((p) => (p.functionResponse ? [p.functionResponse] : [])) ?? [],
    );
    expect(responses[0]?.response).toEqual({ city: 'Paris' });
    expect(responses[1]?.response).toMatchObject({ error: { code: 'TOOL_EXECUTION_FAILED' } });
    expect(getText(events.at(-1)?.content)).toBe('done');
  });

  it('resolves the child’s model name through the caller’s registry', async () => {
    const childModel = new FakeModel({
      name: 'child-only-model',
      responses: ['from the registry'],
    });
    const models = new ModelRegistry();
    models.register(childModel.asProvider());
    const child = new LlmAgent({ name: 'child', model: 'child-only-model' });
    const mainModel = new FakeModel({
      responses: [fakeFunctionCall('child', { request: 'hi' }, 'c1'), 'ok'],
    });
    const main = new LlmAgent({ name: 'main', model: mainModel, tools: [new AgentTool(child)] });
    const runner = new Runner({ appName: 'app', agent: main, models, autoCreateSession: true });
    const events = await collect(
      runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('go') }),
    );
    expect(events[1]?.content?.parts[0]?.functionResponse?.response).toEqual({
      result: 'from the registry',
    });
    expect(childModel.requests).toHaveLength(1);
  });
});
