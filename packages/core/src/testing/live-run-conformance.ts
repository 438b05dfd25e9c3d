import { describe, expect, it } from 'vitest';

import { LlmAgent } from '../agents/llm-agent';
import { randomUuid } from '../events/random-uuid';
import { Runner } from '../runner/runner';
import type { SessionService } from '../sessions';
import { FunctionTool } from '../tools/function-tool';
import { FakeLiveModel, type FakeLiveMessage } from './fake-live-model';
import { FakeModel } from './fake-model';
import { startLiveRun, transcriptOf, userText } from './live-run-harness';

const USER = 'live-user';
const PCM = 'audio/pcm;rate=16000';
const AUDIO_OUT = 'audio/pcm;rate=24000';

function isUserText(message: FakeLiveMessage, text: string): boolean {
  return message.type === 'content' && message.content.parts.some((part) => part.text === text);
}

/**
 * The behaviour of `Runner.runLive` that depends on the session store, as a vitest suite: what a
 * live conversation stores (transcripts as text, turn boundaries with usage, no audio), that a
 * later text turn sees it, tool calls answered on the connection while audio streams, and the
 * resumption handle kept in the session across a dropped connection and a later live run.
 *
 * @example
 * ```ts
 * import { liveRunConformance } from '@adk/core/testing/vitest';
 * liveRunConformance('in-memory', () => new InMemorySessionService());
 * ```
 */
export function liveRunConformance(name: string, makeService: () => SessionService): void {
  describe(`live runs on ${name}`, () => {
    async function setup(model: FakeLiveModel, tools: FunctionTool[] = []) {
      const appName = `live_${randomUuid().slice(0, 8)}`;
      const agent = new LlmAgent({ name: 'voice', model, instruction: 'Be brief.', tools });
      const sessionService = makeService();
      const runner = new Runner({ appName, agent, sessionService });
      const session = await sessionService.createSession({ appName, userId: USER });
      const read = async () =>
        (await sessionService.getSession({ appName, userId: USER, sessionId: session.id }))!;
      return { runner, agent, sessionService, sessionId: session.id, read };
    }

    it('stores a spoken exchange as text (no audio), with the turn boundary and its usage', async () => {
      const model = new FakeLiveModel({
        respond: (message) =>
          message.type === 'realtime' && 'activityEnd' in message.input
            ? [
                { inputTranscription: { text: 'What time ' } },
                { inputTranscription: { text: 'is it?' } },
                { outputTranscription: { text: 'It is ' } },
                {
                  partial: true,
                  content: {
                    role: 'model',
                    parts: [{ inlineData: { mimeType: AUDIO_OUT, data: 'AAAA' } }],
                  },
                },
                { outputTranscription: { text: 'noon.' } },
                {
                  usageMetadata: {
                    promptTokenCount: 7,
                    candidatesTokenCount: 3,
                    totalTokenCount: 10,
                  },
                },
                { turnComplete: true },
              ]
            : undefined,
      });
      const { runner, sessionId, read } = await setup(model);
      const run = startLiveRun(runner, { userId: USER, sessionId });
      await run.queue.sendActivityStart();
      await run.queue.sendRealtime({ mimeType: PCM, data: 'AQID' });
      await run.queue.sendActivityEnd();
      await expect.poll(() => run.events.some((event) => event.turnComplete)).toBe(true);
      run.queue.close();
      await run.done;

      // Deltas were shown as they came, audio included.
      const partials = run.events.filter((event) => event.partial);
      expect(partials.some((event) => event.content?.parts[0]?.inlineData?.data === 'AAAA')).toBe(
        true,
      );
      expect(partials.map((event) => event.inputTranscription?.text).filter(Boolean)).toEqual([
        'What time ',
        'is it?',
      ]);
      // Stored: one event per utterance, as text, then the turn boundary with its usage.
      const session = await read();
      expect(transcriptOf(session.events)).toEqual([
        'user: What time is it?',
        'voice: It is noon.',
      ]);
      expect(session.events.find((event) => event.author === 'user')?.inputTranscription).toEqual({
        text: 'What time is it?',
        finished: true,
      });
      expect(
        session.events.find((event) => event.outputTranscription)?.outputTranscription?.text,
      ).toBe('It is noon.');
      const boundary = session.events.find((event) => event.turnComplete);
      expect(boundary?.usageMetadata?.totalTokenCount).toBe(10);
      expect(
        session.events.some(
          (event) => event.partial || event.content?.parts.some((part) => part.inlineData),
        ),
      ).toBe(false);
      // What the model received: the realtime input, in order.
      expect(model.connections[0]!.received.map((message) => message.type)).toEqual([
        'realtime',
        'realtime',
        'realtime',
      ]);
      expect(model.openConnections).toEqual([]);
    });

    it('stores text turns and streamed text; a later text turn and a later live run see them', async () => {
      const turnBased = new FakeModel(['Sure, 4 pm.']);
      const model = new FakeLiveModel({
        turnBased,
        respond: (message) =>
          isUserText(message, 'Book a table')
            ? [
                { partial: true, content: { role: 'model', parts: [{ text: 'For how ' }] } },
                { partial: true, content: { role: 'model', parts: [{ text: 'many?' }] } },
                { turnComplete: true },
              ]
            : undefined,
      });
      const { runner, sessionId, read } = await setup(model);
      const run = startLiveRun(runner, {
        userId: USER,
        sessionId,
        runConfig: { responseModalities: ['TEXT'] },
      });
      await run.queue.sendContent(userText('Book a table'));
      await expect.poll(() => run.events.some((event) => event.turnComplete)).toBe(true);
      run.queue.close();
      await run.done;
      expect(model.connections[0]!.request.liveConnectConfig?.responseModalities).toEqual(['TEXT']);
      expect(model.connections[0]!.request.systemInstruction).toContain('Be brief.');
      expect(transcriptOf((await read()).events)).toEqual([
        'user: Book a table',
        'voice: For how many?',
      ]);

      // A text turn afterwards gets the live conversation as history.
      for await (const event of runner.run({
        userId: USER,
        sessionId,
        newMessage: userText('At 4?'),
      }))
        void event;
      const history = turnBased.requests[0]!.contents.map(
        (content) => `${content.role}: ${content.parts.map((part) => part.text).join('')}`,
      );
      expect(history).toEqual(['user: Book a table', 'model: For how many?', 'user: At 4?']);

      // A new live run sends the whole conversation as history.
      const again = startLiveRun(runner, { userId: USER, sessionId });
      await expect.poll(() => model.connections.length).toBe(2);
      await expect.poll(() => model.connections[1]!.received.length).toBeGreaterThan(0);
      again.queue.close();
      await again.done;
      const sent = model.connections[1]!.received[0]!;
      expect(sent.type).toBe('history');
      expect(
        sent.type === 'history' &&
          sent.history.map((content) => content.parts.map((part) => part.text).join('')),
      ).toEqual(['Book a table', 'For how many?', 'At 4?', 'Sure, 4 pm.']);
    });

    it('runs a tool while audio keeps streaming and sends its response back on the connection', async () => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const lookup = new FunctionTool({
        name: 'lookup_weather',
        description: 'Weather of a city.',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
        execute: async (args: { city?: string }) => {
          await released;
          return { forecast: `sunny in ${args.city}` };
        },
      });
      const audio = (data: string) => ({
        partial: true,
        content: { role: 'model', parts: [{ inlineData: { mimeType: AUDIO_OUT, data } }] },
      });
      const model = new FakeLiveModel({
        respond: (message) => {
          if (isUserText(message, 'Weather in Paris?')) {
            return [
              {
                content: {
                  role: 'model',
                  parts: [
                    {
                      functionCall: {
                        id: 'call-1',
                        name: 'lookup_weather',
                        args: { city: 'Paris' },
                      },
                    },
                  ],
                },
              },
              audio('BBBB'),
            ];
          }
          if (message.type === 'content' && message.content.parts[0]?.functionResponse) {
            return [
              { outputTranscription: { text: 'Sunny.', finished: true } },
              { turnComplete: true },
            ];
          }
          return undefined;
        },
      });
      const { runner, sessionId, read } = await setup(model, [lookup]);
      const run = startLiveRun(runner, { userId: USER, sessionId });
      await run.queue.sendContent(userText('Weather in Paris?'));
      // The audio after the call arrives while the tool is still running.
      await expect
        .poll(() =>
          run.events.some((event) => event.content?.parts[0]?.inlineData?.data === 'BBBB'),
        )
        .toBe(true);
      expect(run.events.some((event) => event.content?.parts[0]?.functionResponse)).toBe(false);
      release();
      await expect.poll(() => run.events.some((event) => event.turnComplete)).toBe(true);
      run.queue.close();
      await run.done;
      const toolAnswer = model.connections[0]!.received.find(
        (message) => message.type === 'content' && message.content.parts[0]?.functionResponse,
      );
      expect(
        toolAnswer?.type === 'content' && toolAnswer.content.parts[0]?.functionResponse,
      ).toMatchObject({
        id: 'call-1',
        name: 'lookup_weather',
        response: { forecast: 'sunny in Paris' },
      });
      const stored = (await read()).events;
      expect(
        stored
          .map(
            (event) =>
              event.content?.parts[0]?.functionCall?.name ??
              event.content?.parts[0]?.functionResponse?.name,
          )
          .filter(Boolean),
      ).toEqual(['lookup_weather', 'lookup_weather']);
      expect(transcriptOf(stored).at(-1)).toBe('voice: Sunny.');
    });

    it('stores what was said before a barge-in, and the interruption', async () => {
      const model = new FakeLiveModel({
        respond: (message) =>
          isUserText(message, 'Tell me a story')
            ? [{ outputTranscription: { text: 'Once upon ' } }, { interrupted: true }]
            : undefined,
      });
      const { runner, sessionId, read } = await setup(model);
      const run = startLiveRun(runner, { userId: USER, sessionId });
      await run.queue.sendContent(userText('Tell me a story'));
      await expect.poll(() => run.events.some((event) => event.interrupted)).toBe(true);
      run.queue.close();
      await run.done;
      const stored = (await read()).events;
      expect(transcriptOf(stored)).toEqual(['user: Tell me a story', 'voice: Once upon']);
      expect(stored.at(-1)?.interrupted).toBe(true);
    });

    it('keeps the resumption handle in the session: a dropped connection and a later live run resume with it', async () => {
      const model = new FakeLiveModel({
        onConnect: (connection) =>
          connection.index === 0
            ? [{ liveSessionResumptionUpdate: { newHandle: 'handle-1', resumable: true } }]
            : [
                {
                  liveSessionResumptionUpdate: {
                    newHandle: `handle-${connection.index + 1}`,
                    resumable: true,
                  },
                },
              ],
        respond: (message, connection) =>
          isUserText(message, 'Hello') && connection.index === 0
            ? [
                { outputTranscription: { text: 'Hi', finished: true } },
                { drop: true, error: new Error('socket reset') },
              ]
            : undefined,
      });
      const { runner, sessionId, read } = await setup(model);
      const run = startLiveRun(runner, {
        userId: USER,
        sessionId,
        runConfig: { sessionResumption: {} },
      });
      await run.queue.sendContent(userText('Hello'));
      await expect.poll(() => model.connections.length).toBe(2);
      await expect
        .poll(
          async () =>
            (await read()).events.filter((event) => event.liveSessionResumptionUpdate).length,
        )
        .toBe(2);
      // The second connection resumed with the handle the first one gave, and got no history.
      expect(model.connections[1]!.request.liveConnectConfig?.sessionResumption).toEqual({
        handle: 'handle-1',
      });
      expect(model.connections[1]!.received.some((message) => message.type === 'history')).toBe(
        false,
      );
      run.queue.close();
      await run.done;
      expect(model.openConnections).toEqual([]);

      // A later live run on the session continues from the latest stored handle.
      const later = startLiveRun(runner, {
        userId: USER,
        sessionId,
        runConfig: { sessionResumption: {} },
      });
      await expect.poll(() => model.connections.length).toBe(3);
      later.queue.close();
      await later.done;
      expect(model.connections[2]!.request.liveConnectConfig?.sessionResumption).toEqual({
        handle: 'handle-2',
      });
      expect(transcriptOf((await read()).events)).toEqual(['user: Hello', 'voice: Hi']);
    });
  });
}
