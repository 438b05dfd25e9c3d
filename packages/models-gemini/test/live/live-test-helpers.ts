import type { LiveConnectConfig, LiveConnection, LlmRequest, LlmResponse } from '@adk/core';

/** A live request for `gemini-live-2.5-flash-preview` with these live settings. */
export function liveRequest(live: LiveConnectConfig, extra: Partial<LlmRequest> = {}): LlmRequest {
  return {
    model: 'gemini-live-2.5-flash-preview',
    contents: [],
    config: {},
    liveConnectConfig: live,
    ...extra,
  };
}

/** 20 ms of 16 kHz 16-bit mono PCM, base64, as a microphone sends it. */
export const MIC_CHUNK = {
  mimeType: 'audio/pcm;rate=16000',
  data: Buffer.alloc(640, 7).toString('base64'),
};

/**
 * Reads `connection.receive()` in the background: `responses` grows as they arrive, `until`
 * waits for one matching a predicate, `done` settles when the stream ends (or rejects with its
 * error).
 */
export function readInBackground(connection: LiveConnection) {
  const responses: LlmResponse[] = [];
  const waiters: Array<{ test: (r: LlmResponse) => boolean; resolve: (r: LlmResponse) => void }> =
    [];
  const done = (async () => {
    for await (const response of connection.receive()) {
      responses.push(response);
      for (const waiter of [...waiters]) {
        if (waiter.test(response)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(response);
        }
      }
    }
  })();
  done.catch(() => {});
  const until = (test: (r: LlmResponse) => boolean): Promise<LlmResponse> => {
    const found = responses.find(test);
    if (found) return Promise.resolve(found);
    return Promise.race([
      new Promise<LlmResponse>((resolve) => waiters.push({ test, resolve })),
      done.then(() => {
        throw new Error('the live stream ended before the expected response');
      }),
    ]);
  };
  return { responses, until, done };
}

/** Node timers alive right now (to check a connection leaves none behind). */
export function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
}
