import { expect, it } from 'vitest';

import { getFunctionCalls, getText, userContent } from '../content';
import { AdkError } from '../errors';
import type { LlmResponse } from '../models';
import { collect, expectStreamingContract, request } from './provider-conformance-helpers';
import type { ConformanceBackend, ConformanceReply } from './provider-conformance-types';

/** Starts a backend for one test (`retries`: the model's automatic retries, default 0). */
export type StartBackend = (
  script: ConformanceReply[],
  retries?: number,
) => Promise<ConformanceBackend>;

/** Consumes a call until it throws; returns what was yielded and the error (if any). */
async function collectUntilError(
  iterable: AsyncIterable<LlmResponse>,
): Promise<{ responses: LlmResponse[]; error: unknown }> {
  const responses: LlmResponse[] = [];
  try {
    for await (const response of iterable) responses.push(response);
    return { responses, error: undefined };
  } catch (error) {
    return { responses, error };
  }
}

/**
 * The parts of the provider contract that only show when things go wrong: finish reasons other
 * than STOP, retries, and connections that drop.
 */
export function defineRobustnessTests(start: StartBackend): void {
  for (const stream of [false, true]) {
    it(`reports an answer cut by the output token limit as MAX_TOKENS, keeping its text (stream: ${stream})`, async () => {
      const { model } = await start([
        { type: 'text', text: 'Once upon a', chunks: ['Once', ' upon a'], finishReason: 'length' },
      ]);
      const final = expectStreamingContract(
        await collect(model.generate(request([userContent('A story?')]), { stream })),
      );
      expect(final.finishReason, 'a truncated answer must not look complete (STOP)').toBe(
        'MAX_TOKENS',
      );
      expect(getText(final.content)).toBe('Once upon a');
    });

    it(`reports a safety block as SAFETY with an errorCode (stream: ${stream})`, async () => {
      const { model } = await start([
        { type: 'text', text: 'I can', chunks: ['I can'], finishReason: 'safety' },
      ]);
      const final = expectStreamingContract(
        await collect(model.generate(request([userContent('Something risky')]), { stream })),
      );
      expect(final.finishReason).toBe('SAFETY');
      expect(final.errorCode, 'a blocked answer carries an errorCode').toEqual(expect.any(String));
      expect(getFunctionCalls(final.content)).toEqual([]);
    });

    it(`retries a 503 when retries are enabled, then answers (stream: ${stream})`, async () => {
      const backend = await start(
        [
          { type: 'error', status: 503, message: 'overloaded' },
          { type: 'text', text: 'Back again.', chunks: ['Back', ' again.'] },
        ],
        2,
      );
      const final = expectStreamingContract(
        await collect(backend.model.generate(request([userContent('Hi')]), { stream })),
      );
      expect(getText(final.content)).toBe('Back again.');
      expect(backend.requests()).toHaveLength(2);
    });

    it(`does not retry a 400, even with retries enabled (stream: ${stream})`, async () => {
      const backend = await start(
        [
          { type: 'error', status: 400, message: 'bad request' },
          { type: 'text', text: 'unreachable', chunks: ['unreachable'] },
        ],
        2,
      );
      const error = await collect(
        backend.model.generate(request([userContent('Hi')]), { stream }),
      ).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 400, retryable: false });
      expect(backend.requests()).toHaveLength(1);
    });
  }

  for (const stream of [false, true]) {
    it(`never hands out a tool call whose arguments are not valid JSON (stream: ${stream})`, async () => {
      const { model } = await start([
        { type: 'malformedToolCall', name: 'get_weather', rawArguments: '{"city": "Par' },
      ]);
      const { responses, error } = await collectUntilError(
        model.generate(request([userContent('Weather in Paris?')]), { stream }),
      );
      expect(
        responses.flatMap((response) => getFunctionCalls(response.content)),
        'no half-built call',
      ).toEqual([]);
      if (error === undefined) {
        const final = expectStreamingContract(responses);
        expect(final.errorCode, 'a malformed call is reported with an errorCode').toEqual(
          expect.any(String),
        );
      } else {
        expect(AdkError.isInstance(error), 'or thrown as an AdkError').toBe(true);
      }
    });
  }

  it('a stream cut mid-way throws a typed, retryable error after the partial text, and no final response', async () => {
    const { model } = await start([{ type: 'cut', text: 'Let me' }]);
    const { responses, error } = await collectUntilError(
      model.generate(request([userContent('Hi')]), { stream: true }),
    );
    expect(AdkError.isInstance(error), 'a cut stream is an AdkError').toBe(true);
    expect(error).toMatchObject({ retryable: true });
    expect(responses.every((response) => response.partial)).toBe(true);
    expect(responses.map((response) => getText(response.content)).join('')).toBe('Let me');
  });

  it('a connection dropped before a non-streamed answer throws a typed, retryable error', async () => {
    const { model } = await start([{ type: 'cut', text: 'Let me' }]);
    const { responses, error } = await collectUntilError(
      model.generate(request([userContent('Hi')]), { stream: false }),
    );
    expect(responses).toEqual([]);
    expect(AdkError.isInstance(error), 'a dropped connection is an AdkError').toBe(true);
    expect(error).toMatchObject({ retryable: true });
  });
}
