import { describe, expect, it } from 'vitest';

import { TestArtifactService } from '../../test/helpers';
import { AgentTool } from '../agents/agent-tool';
import { LlmAgent } from '../agents/llm-agent';
import { App } from '../app/app';
import { LiveConnectionLostError } from '../errors/live-connection-lost-error';
import { LiveNotSupportedError } from '../errors/live-not-supported-error';
import { ServiceNotConfiguredError } from '../errors/service-not-configured-error';
import { confirmationResponse, REQUEST_CONFIRMATION_FUNCTION_NAME } from '../policies/confirmation';
import type { Policy } from '../policies/policy';
import { Runner } from '../runner/runner';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { FakeLiveModel, type FakeLiveMessage } from '../testing/fake-live-model';
import { FakeModel } from '../testing/fake-model';
import { startLiveRun, transcriptOf, userText } from '../testing/live-run-harness';
import { FunctionTool } from '../tools/function-tool';
import { LIVE_BLOB_METADATA_KEY } from './live-blob-recorder';
import { LiveRequestQueue } from './live-request-queue';

const APP = 'live_app';
const USER = 'u1';
const SESSION = 's1';

async function setup(agent: LlmAgent, artifactService?: TestArtifactService) {
  const sessionService = new InMemorySessionService();
  await sessionService.createSession({ appName: APP, userId: USER, sessionId: SESSION });
  const runner = new Runner({ appName: APP, agent, sessionService, artifactService });
  const read = async () =>
    (await sessionService.getSession({ appName: APP, userId: USER, sessionId: SESSION }))!;
  return { runner, read };
}

function isUserText(message: FakeLiveMessage, text: string): boolean {
  return message.type === 'content' && message.content.parts.some((part) => part.text === text);
}

describe('Runner.runLive', () => {
  it('refuses a model without connectLive with a typed error, before storing anything', async () => {
    const agent = new LlmAgent({ name: 'voice', model: new FakeModel(['hi']) });
    const { runner, read } = await setup(agent);
    const run = startLiveRun(runner, { userId: USER, sessionId: SESSION });
    await expect(run.done).rejects.toSatisfy(
      (error) =>
        LiveNotSupportedError.isInstance(error) &&
        (error as LiveNotSupportedError).model === 'fake-model',
    );
    expect((await read()).events).toEqual([]);
    // The queue is closed with the run: a late sender learns it.
    await expect(run.queue.sendContent(userText('x'))).rejects.toThrow('closed');
  });

  it('needs an artifact service for saveLiveBlob', async () => {
    const agent = new LlmAgent({ name: 'voice', model: new FakeLiveModel() });
    const { runner } = await setup(agent);
    const run = startLiveRun(runner, {
      userId: USER,
      sessionId: SESSION,
      runConfig: { saveLiveBlob: true },
    });
    await expect(run.done).rejects.toSatisfy((error) =>
      ServiceNotConfiguredError.isInstance(error),
    );
  });

  it('closes the connection when the signal aborts, storing nothing partial', async () => {
    const model = new FakeLiveModel({
      respond: (message) =>
        isUserText(message, 'Talk') ? [{ outputTranscription: { text: 'Half a sen' } }] : undefined,
    });
    const { runner, read } = await setup(new LlmAgent({ name: 'voice', model }));
    const controller = new AbortController();
    const run = startLiveRun(runner, {
      userId: USER,
      sessionId: SESSION,
      signal: controller.signal,
    });
    await run.queue.sendContent(userText('Talk'));
    await expect.poll(() => run.events.some((event) => event.outputTranscription)).toBe(true);
    controller.abort();
    await run.done;
    expect(model.openConnections).toEqual([]);
    expect(transcriptOf((await read()).events)).toEqual(['user: Talk']);
    expect(run.queue.closed).toBe(true);
  });

  it('a provider sending partial transcription pieces, then the whole utterance non-partial, stores each utterance once', async () => {
    const model = new FakeLiveModel({
      respond: (message) =>
        isUserText(message, 'Go')
          ? [
              { inputTranscription: { text: 'Is it ' }, partial: true },
              { inputTranscription: { text: 'sunny?' }, partial: true },
              { inputTranscription: { text: 'Is it sunny?', finished: true } },
              { outputTranscription: { text: 'Yes, ' }, partial: true },
              { outputTranscription: { text: 'it is.' }, partial: true },
              { outputTranscription: { text: 'Yes, it is.', finished: true } },
              { turnComplete: true },
            ]
          : undefined,
    });
    const { runner, read } = await setup(new LlmAgent({ name: 'voice', model }));
    const run = startLiveRun(runner, { userId: USER, sessionId: SESSION });
    await run.queue.sendContent(userText('Go'));
    await expect.poll(() => run.events.some((event) => event.turnComplete)).toBe(true);
    run.queue.close();
    await run.done;
    expect(transcriptOf((await read()).events)).toEqual([
      'user: Go',
      'user: Is it sunny?',
      'voice: Yes, it is.',
    ]);
    // The pieces were shown as they came, the whole not a second time.
    expect(
      run.events
        .filter((event) => event.partial && event.outputTranscription)
        .map((event) => event.outputTranscription?.text),
    ).toEqual(['Yes, ', 'it is.']);
  });

  it('closes the connection when the consumer stops reading', async () => {
    const model = new FakeLiveModel({
      onConnect: () => [{ outputTranscription: { text: 'Hello' } }],
    });
    const { runner } = await setup(new LlmAgent({ name: 'voice', model }));
    const queue = new LiveRequestQueue();
    for await (const event of runner.runLive({
      userId: USER,
      sessionId: SESSION,
      liveRequests: queue,
    })) {
      expect(event.outputTranscription?.text).toBe('Hello');
      break;
    }
    expect(model.openConnections).toEqual([]);
    expect(queue.closed).toBe(true);
  });

  it('reconnects after goAway without counting it as a failure, and gives up after bounded failures', async () => {
    const model = new FakeLiveModel({
      onConnect: (connection) =>
        connection.index === 0
          ? [
              { liveSessionResumptionUpdate: { newHandle: 'h0', resumable: true } },
              { goAway: { timeLeftMs: 50 } },
            ]
          : [{ drop: true, error: new Error(`reset ${connection.index}`) }],
    });
    const { runner } = await setup(new LlmAgent({ name: 'voice', model }));
    const run = startLiveRun(runner, {
      userId: USER,
      sessionId: SESSION,
      runConfig: { sessionResumption: {} },
      maxReconnectAttempts: 2,
    });
    await expect(run.done).rejects.toSatisfy(
      (error) =>
        LiveConnectionLostError.isInstance(error) &&
        (error as LiveConnectionLostError).attempts === 2 &&
        ((error as Error).cause as Error).message === 'reset 3',
    );
    // goAway: connection 1 (not a failure); it drops: reconnections 1 (connection 2) and 2
    // (connection 3) are allowed; connection 3 drops too and the run gives up.
    expect(model.connections.length).toBe(4);
    expect(
      model.connections.slice(1).map((c) => c.request.liveConnectConfig?.sessionResumption?.handle),
    ).toEqual(['h0', 'h0', 'h0']);
    expect(run.events.some((event) => event.goAway && event.partial)).toBe(true);
    expect(model.openConnections).toEqual([]);
  });

  it('counts failed connection attempts against the bound too', async () => {
    const model = new FakeLiveModel({
      connectError: (attempt) => (attempt === 0 ? undefined : new Error('refused')),
      onConnect: () => [{ drop: true }],
    });
    const { runner } = await setup(new LlmAgent({ name: 'voice', model }));
    const run = startLiveRun(runner, { userId: USER, sessionId: SESSION, maxReconnectAttempts: 3 });
    await expect(run.done).rejects.toSatisfy((error) => LiveConnectionLostError.isInstance(error));
    expect(model.connectAttempts).toBe(4);
    expect(model.openConnections).toEqual([]);
  });

  it('finishes and stores a tool call still running when the user closes', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = new FunctionTool({
      name: 'slow_lookup',
      description: 'Takes a while.',
      execute: async () => {
        await released;
        return { done: true };
      },
    });
    const model = new FakeLiveModel({
      respond: (message) =>
        isUserText(message, 'Look it up')
          ? [
              {
                content: {
                  role: 'model',
                  parts: [{ functionCall: { id: 'slow-1', name: 'slow_lookup', args: {} } }],
                },
              },
            ]
          : undefined,
    });
    const { runner, read } = await setup(new LlmAgent({ name: 'voice', model, tools: [slow] }));
    // The run's callbacks see the call, as in a turn.
    const seen: string[] = [];
    const run = startLiveRun(runner, {
      userId: USER,
      sessionId: SESSION,
      callbacks: {
        beforeTool: ({ tool }) => {
          seen.push(tool.name);
          return undefined;
        },
      },
    });
    await run.queue.sendContent(userText('Look it up'));
    await expect
      .poll(() => run.events.some((event) => event.content?.parts[0]?.functionCall))
      .toBe(true);
    run.queue.close();
    await expect.poll(() => model.openConnections.length).toBe(0);
    release();
    await run.done;
    const stored = (await read()).events;
    expect(stored.at(-1)?.content?.parts[0]?.functionResponse).toMatchObject({
      id: 'slow-1',
      response: { done: true },
    });
  });

  it('passes what the model says through the output filters of policies (redaction)', async () => {
    const model = new FakeLiveModel({
      respond: (message) =>
        isUserText(message, 'Code?')
          ? [
              { outputTranscription: { text: 'The code is 1234.', finished: true } },
              { turnComplete: true },
            ]
          : undefined,
    });
    const redact: Policy = {
      name: 'redact-digits',
      filterOutput: ({ content }) => ({
        ...content,
        parts: content.parts.map((part) =>
          part.text === undefined ? part : { ...part, text: part.text.replace(/\d/g, '#') },
        ),
      }),
    };
    const agent = new LlmAgent({ name: 'voice', model, policies: [redact] });
    const { runner, read } = await setup(agent);
    const run = startLiveRun(runner, { userId: USER, sessionId: SESSION });
    await run.queue.sendContent(userText('Code?'));
    await expect.poll(() => run.events.some((event) => event.turnComplete)).toBe(true);
    run.queue.close();
    await run.done;
    const said = (await read()).events.find((event) => event.outputTranscription);
    expect(said?.content?.parts[0]?.text).toBe('The code is ####.');
    expect(said?.outputTranscription?.text).toBe('The code is ####.');
  });

  it("runs an agent tool's agent with the app's context caching, as a turn-based run does", async () => {
    const helperModel = new FakeModel({ responses: () => 'Paris.' });
    const helper = new LlmAgent({ name: 'geographer', model: helperModel });
    const model = new FakeLiveModel({
      respond: (message) =>
        isUserText(message, 'Capital of France?')
          ? [
              {
                content: {
                  role: 'model',
                  parts: [
                    {
                      functionCall: {
                        id: 'ask-1',
                        name: 'geographer',
                        args: { request: 'Capital of France?' },
                      },
                    },
                  ],
                },
              },
            ]
          : undefined,
    });
    const agent = new LlmAgent({ name: 'voice', model, tools: [new AgentTool(helper)] });
    const sessionService = new InMemorySessionService();
    await sessionService.createSession({ appName: APP, userId: USER, sessionId: SESSION });
    const app = new App({ name: APP, agent, contextCacheConfig: { ttlSeconds: 60 } });
    const runner = new Runner({ app, sessionService });
    const run = startLiveRun(runner, { userId: USER, sessionId: SESSION });
    await run.queue.sendContent(userText('Capital of France?'));
    await expect.poll(() => helperModel.requests.length).toBe(1);
    run.queue.close();
    await run.done;
    // The live run's invocation carries the app's config, which the helper's call inherits.
    expect(helperModel.requests[0]!.cacheConfig).toMatchObject({ ttlSeconds: 60 });
  });

  it('pauses a tool for confirmation while the connection goes on, then answers the model', async () => {
    let ran = 0;
    const transfer = new FunctionTool({
      name: 'transfer_money',
      description: 'Send money.',
      parameters: { type: 'object', properties: { amount: { type: 'number' } } },
      requireConfirmation: true,
      execute: (args: { amount?: number }) => {
        ran++;
        return { sent: args.amount };
      },
    });
    const model = new FakeLiveModel({
      respond: (message) => {
        if (isUserText(message, 'Send 5')) {
          return [
            {
              content: {
                role: 'model',
                parts: [
                  { functionCall: { id: 'pay-1', name: 'transfer_money', args: { amount: 5 } } },
                ],
              },
            },
          ];
        }
        if (isUserText(message, 'Still there?')) {
          return [
            { outputTranscription: { text: 'Yes.', finished: true } },
            { turnComplete: true },
          ];
        }
        return undefined;
      },
    });
    const { runner, read } = await setup(new LlmAgent({ name: 'bank', model, tools: [transfer] }));
    const run = startLiveRun(runner, { userId: USER, sessionId: SESSION });
    await run.queue.sendContent(userText('Send 5'));
    await expect
      .poll(() =>
        run.events.find(
          (event) =>
            event.content?.parts[0]?.functionCall?.name === REQUEST_CONFIRMATION_FUNCTION_NAME,
        ),
      )
      .toBeDefined();
    const request = run.events.find(
      (event) => event.content?.parts[0]?.functionCall?.name === REQUEST_CONFIRMATION_FUNCTION_NAME,
    )!;
    // The connection is still served while the call waits.
    await run.queue.sendContent(userText('Still there?'));
    await expect.poll(() => run.events.some((event) => event.turnComplete)).toBe(true);
    expect(ran).toBe(0);
    await run.queue.sendContent(
      confirmationResponse(request.content!.parts[0]!.functionCall!.id!, true),
    );
    await expect.poll(() => ran).toBe(1);
    const connection = model.connections[0]!;
    await expect
      .poll(
        () =>
          connection.received.filter(
            (m) =>
              m.type === 'content' &&
              m.content.parts[0]?.functionResponse?.name === 'transfer_money',
          ).length,
      )
      .toBe(2);
    run.queue.close();
    await run.done;
    // The model never sees the confirmation machinery.
    expect(
      connection.received.some(
        (m) =>
          m.type === 'content' &&
          m.content.parts.some(
            (p) => p.functionResponse?.name === REQUEST_CONFIRMATION_FUNCTION_NAME,
          ),
      ),
    ).toBe(false);
    // First the model hears the call waits for a confirmation, then its result.
    const answers = connection.received.filter(
      (m) =>
        m.type === 'content' && m.content.parts[0]?.functionResponse?.name === 'transfer_money',
    );
    expect(answers.length).toBe(2);
    const answer = answers[1];
    expect(answer?.type === 'content' && answer.content.parts[0]?.functionResponse).toMatchObject({
      id: 'pay-1',
      response: { sent: 5 },
    });
    const stored = (await read()).events;
    expect(
      stored.some((event) => event.content?.parts[0]?.functionResponse?.response?.['sent'] === 5),
    ).toBe(true);
  });

  it('stores live audio as artifacts with saveLiveBlob, referenced from the session', async () => {
    const model = new FakeLiveModel({
      respond: (message) =>
        message.type === 'realtime' && 'activityEnd' in message.input
          ? [
              {
                partial: true,
                content: {
                  role: 'model',
                  parts: [
                    {
                      inlineData: {
                        mimeType: 'audio/pcm;rate=24000',
                        data: Buffer.from([9, 9]).toString('base64'),
                      },
                    },
                  ],
                },
              },
              {
                partial: true,
                content: {
                  role: 'model',
                  parts: [
                    {
                      inlineData: {
                        mimeType: 'audio/pcm;rate=24000',
                        data: Buffer.from([8]).toString('base64'),
                      },
                    },
                  ],
                },
              },
              { turnComplete: true },
            ]
          : undefined,
    });
    const artifacts = new TestArtifactService();
    const { runner, read } = await setup(new LlmAgent({ name: 'voice', model }), artifacts);
    const run = startLiveRun(runner, {
      userId: USER,
      sessionId: SESSION,
      runConfig: { saveLiveBlob: true },
    });
    await run.queue.sendRealtime({
      mimeType: 'audio/pcm;rate=16000',
      data: Buffer.from([1, 2]).toString('base64'),
    });
    await run.queue.sendRealtime({
      mimeType: 'audio/pcm;rate=16000',
      data: Buffer.from([3]).toString('base64'),
    });
    await run.queue.sendActivityEnd();
    await expect.poll(() => run.events.some((event) => event.turnComplete)).toBe(true);
    run.queue.close();
    await run.done;
    const references = (await read()).events.filter(
      (event) => event.customMetadata?.[LIVE_BLOB_METADATA_KEY],
    );
    expect(references.map((event) => event.author)).toEqual(['user', 'voice']);
    const bytes = await Promise.all(
      references.map(async (event) => {
        const [filename, version] = Object.entries(event.actions.artifactDelta)[0]!;
        const part = await artifacts.loadArtifact({
          appName: APP,
          userId: USER,
          sessionId: SESSION,
          filename,
          version,
        });
        return [...Buffer.from(part!.inlineData!.data, 'base64')];
      }),
    );
    expect(bytes).toEqual([
      [1, 2, 3],
      [9, 9, 8],
    ]);
  });

  it('transfers to another agent on a new connection with the conversation as history', async () => {
    const helperModel = new FakeLiveModel({ name: 'helper-live' });
    const helper = new LlmAgent({
      name: 'billing',
      description: 'Billing questions.',
      model: helperModel,
    });
    const rootModel = new FakeLiveModel({
      respond: (message) =>
        isUserText(message, 'About my bill')
          ? [
              {
                content: {
                  role: 'model',
                  parts: [
                    {
                      functionCall: {
                        id: 't-1',
                        name: 'transfer_to_agent',
                        args: { agent_name: 'billing' },
                      },
                    },
                  ],
                },
              },
            ]
          : undefined,
    });
    const root = new LlmAgent({ name: 'frontdesk', model: rootModel, subAgents: [helper] });
    const { runner } = await setup(root);
    const run = startLiveRun(runner, { userId: USER, sessionId: SESSION });
    await run.queue.sendContent(userText('About my bill'));
    await expect.poll(() => helperModel.connections.length).toBe(1);
    await expect.poll(() => helperModel.connections[0]!.received.length).toBeGreaterThan(0);
    await run.queue.sendContent(userText('Why so high?'));
    await expect.poll(() => helperModel.connections[0]!.sentTexts).toContain('Why so high?');
    run.queue.close();
    await run.done;
    expect(rootModel.openConnections).toEqual([]);
    expect(helperModel.openConnections).toEqual([]);
    const history = helperModel.connections[0]!.received[0]!;
    expect(
      history.type === 'history' &&
        history.history.flatMap((c) => c.parts.map((p) => p.text)).filter(Boolean),
    ).toContain('About my bill');
  });
});
