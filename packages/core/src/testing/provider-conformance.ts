import { afterEach, describe, expect, it } from 'vitest';

import { AdkError } from '../errors';
import { getFunctionCalls, getText, userContent, type Content } from '../content';
import type { LlmResponse } from '../models';
import type {
  ConformanceBackend,
  ConformanceReply,
  ModelProviderConformanceOptions,
} from './provider-conformance-types';
import { collect, expectStreamingContract, request } from './provider-conformance-helpers';
import { defineRobustnessTests } from './provider-conformance-robustness';

/**
 * Provider-neutral conformance suite for {@link Model} implementations: text, streamed text, one
 * tool call, parallel tool calls, a tool result round trip, the system instruction, abort, error
 * mapping, finish reasons (`MAX_TOKENS`, `SAFETY`), retries and streams cut mid-way, each checked
 * against the `LlmResponse` streaming contract. Call it inside a vitest test
 * file with an adapter that binds a model to a scripted backend (usually a fake HTTP server that
 * speaks the provider's wire format).
 *
 * @example
 * ```ts
 * modelProviderConformance('acme', {
 *   async createBackend(script, { retries }) {
 *     const server = await startFakeAcme(script.map(toAcmeReply));
 *     const model = createAcme({ apiKey: 'k', baseURL: server.url, maxRetries: retries })('acme-1');
 *     return { model, requests: () => server.requests.map(describeAcmeRequest), close: server.close };
 *   },
 * });
 * ```
 */
export function modelProviderConformance(
  label: string,
  options: ModelProviderConformanceOptions,
): void {
  describe(`model provider conformance: ${label}`, () => {
    let backend: ConformanceBackend | undefined;
    afterEach(async () => {
      await backend?.close?.();
      backend = undefined;
    });
    const start = async (script: ConformanceReply[], retries = 0) => {
      backend = await options.createBackend(script, { retries });
      return backend;
    };
    const hello: ConformanceReply = {
      type: 'text',
      text: 'Hello there, friend.',
      chunks: ['Hello', ' there,', ' friend.'],
    };

    it('answers with text in exactly one final response when not streaming', async () => {
      const { model } = await start([hello]);
      const responses = await collect(
        model.generate(request([userContent('Hi')]), { stream: false }),
      );
      expect(responses).toHaveLength(1);
      const [final] = responses;
      expect(final!.partial).toBeFalsy();
      expect(getText(final!.content)).toBe('Hello there, friend.');
      expect(final!.content?.role).toBe('model');
      expect(final!.finishReason).toBe('STOP');
      expect(final!.usageMetadata?.promptTokenCount).toBeGreaterThan(0);
      expect(final!.usageMetadata?.candidatesTokenCount).toBeGreaterThan(0);
      expect(final!.errorCode).toBeUndefined();
    });

    it('streams text as partial deltas, then one aggregated final response with usage', async () => {
      const { model } = await start([hello]);
      const responses = await collect(
        model.generate(request([userContent('Hi')]), { stream: true }),
      );
      const final = expectStreamingContract(responses);
      const partials = responses.filter((r) => r.partial);
      expect(partials.length).toBeGreaterThan(1);
      expect(partials.map((r) => getText(r.content)).join('')).toBe('Hello there, friend.');
      expect(getText(final.content)).toBe('Hello there, friend.');
      expect(final.content?.parts.filter((p) => p.text !== undefined)).toHaveLength(1);
      expect(final.finishReason).toBe('STOP');
      expect(final.usageMetadata?.candidatesTokenCount).toBeGreaterThan(0);
    });

    for (const stream of [false, true]) {
      it(`returns one tool call with parsed args and an id (stream: ${stream})`, async () => {
        const backend = await start([
          { type: 'toolCalls', calls: [{ name: 'get_weather', args: { city: 'Paris, "FR" ☀' } }] },
        ]);
        const responses = await collect(
          backend.model.generate(request([userContent('Weather in Paris?')]), { stream }),
        );
        const final = expectStreamingContract(responses);
        const calls = getFunctionCalls(final.content);
        expect(calls).toHaveLength(1);
        expect(calls[0]).toMatchObject({ name: 'get_weather', args: { city: 'Paris, "FR" ☀' } });
        expect(calls[0]!.id).toEqual(expect.any(String));
        expect(calls[0]!.id).not.toBe('');
        expect(
          responses.filter((r) => r.partial).flatMap((r) => getFunctionCalls(r.content)),
        ).toEqual([]);
        expect(backend.requests()[0]!.toolNames).toEqual(['get_weather']);
      });

      it(`returns parallel tool calls in order with distinct ids (stream: ${stream})`, async () => {
        const { model } = await start([
          {
            type: 'toolCalls',
            calls: [
              { name: 'get_weather', args: { city: 'Paris' } },
              { name: 'get_weather', args: { city: 'Tokyo' } },
            ],
          },
        ]);
        const responses = await collect(
          model.generate(request([userContent('Paris and Tokyo?')]), { stream }),
        );
        const calls = getFunctionCalls(expectStreamingContract(responses).content);
        expect(calls.map((c) => c.args)).toEqual([{ city: 'Paris' }, { city: 'Tokyo' }]);
        expect(new Set(calls.map((c) => c.id)).size).toBe(2);
      });
    }

    it('sends tool results back, paired with their calls, and reads the answer', async () => {
      const backend = await start([
        { type: 'text', text: 'Sunny, 21°C.', chunks: ['Sunny, 21°C.'] },
      ]);
      const contents: Content[] = [
        userContent('Weather in Paris and Tokyo?'),
        {
          role: 'model',
          parts: [
            { functionCall: { id: 'call_paris', name: 'get_weather', args: { city: 'Paris' } } },
            { functionCall: { id: 'call_tokyo', name: 'get_weather', args: { city: 'Tokyo' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'call_paris',
                name: 'get_weather',
                response: { temperature: 21 },
              },
            },
            {
              functionResponse: {
                id: 'call_tokyo',
                name: 'get_weather',
                response: { temperature: 18 },
              },
            },
          ],
        },
      ];
      const responses = await collect(backend.model.generate(request(contents), { stream: false }));
      expect(getText(responses[0]!.content)).toBe('Sunny, 21°C.');
      const sent = backend.requests()[0]!;
      expect(sent.userTexts).toEqual(['Weather in Paris and Tokyo?']);
      expect(sent.toolCalls).toEqual([
        { id: 'call_paris', name: 'get_weather', args: { city: 'Paris' } },
        { id: 'call_tokyo', name: 'get_weather', args: { city: 'Tokyo' } },
      ]);
      expect(sent.toolResults.map((r) => r.response)).toEqual([
        { temperature: 21 },
        { temperature: 18 },
      ]);
      expect(sent.toolResults.map((r) => r.id ?? r.name)).toEqual(
        sent.toolResults[0]!.id === undefined
          ? ['get_weather', 'get_weather']
          : ['call_paris', 'call_tokyo'],
      );
    });

    it('sends the system instruction apart from the user turns', async () => {
      const backend = await start([hello]);
      await collect(
        backend.model.generate(
          request([userContent('Hi')], { systemInstruction: 'You are terse.' }),
          {
            stream: false,
          },
        ),
      );
      const sent = backend.requests()[0]!;
      expect(sent.systemInstruction).toBe('You are terse.');
      expect(sent.userTexts).toEqual(['Hi']);
    });

    it('stops a stream promptly when aborted and throws the signal reason', async () => {
      const { model } = await start([{ type: 'hang', text: 'Let me think' }]);
      const controller = new AbortController();
      const reason = new Error('user went away');
      const seen: LlmResponse[] = [];
      const error = await (async () => {
        for await (const response of model.generate(request([userContent('Hi')]), {
          stream: true,
          signal: controller.signal,
        })) {
          seen.push(response);
          controller.abort(reason);
        }
      })().catch((caught: unknown) => caught);
      expect(error).toBe(reason);
      expect(seen).toHaveLength(1);
      expect(getText(seen[0]!.content)).toBe('Let me think');
    });

    it('throws the signal reason when called with an aborted signal', async () => {
      const { model } = await start([hello]);
      const reason = new Error('already aborted');
      const error = await collect(
        model.generate(request([userContent('Hi')]), {
          stream: false,
          signal: AbortSignal.abort(reason),
        }),
      ).catch((caught: unknown) => caught);
      expect(error).toBe(reason);
    });

    it('stops a non-streaming call that gets no answer when aborted', async () => {
      const { model } = await start([{ type: 'hang', text: 'Let me think' }]);
      const controller = new AbortController();
      const reason = new Error('deadline');
      const pending = collect(
        model.generate(request([userContent('Hi')]), { stream: false, signal: controller.signal }),
      ).catch((caught: unknown) => caught);
      setImmediate(() => controller.abort(reason));
      expect(await pending).toBe(reason);
    });

    for (const [status, retryable] of [
      [400, false],
      [500, true],
    ] as const) {
      it(`maps an HTTP ${status} to a typed error with status, retryability and the provider message`, async () => {
        const failure: ConformanceReply = {
          type: 'error',
          status,
          message: `scripted failure ${status}`,
        };
        const { model } = await start([failure, failure]);
        for (const stream of [false, true]) {
          const error = await collect(
            model.generate(request([userContent('Hi')]), { stream }),
          ).catch((caught: unknown) => caught);
          expect(AdkError.isInstance(error), `stream: ${stream}`).toBe(true);
          expect(error).toMatchObject({ status, retryable });
          expect((error as Error).message).toContain(`scripted failure ${status}`);
        }
      });
    }

    defineRobustnessTests(start);
  });
}
