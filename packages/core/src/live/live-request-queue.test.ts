import { describe, expect, it } from 'vitest';
import { userContent } from '../content';
import { InvalidArgumentError } from '../errors/invalid-argument-error';
import { LiveRequestQueueClosedError } from '../errors/live-request-queue-closed-error';
import type { LiveRequest } from './live-request';
import { LiveRequestQueue } from './live-request-queue';

const audio = (n: number) => ({ mimeType: 'audio/pcm;rate=16000', data: String(n) });

async function drain(queue: LiveRequestQueue): Promise<LiveRequest[]> {
  const seen: LiveRequest[] = [];
  for await (const request of queue) seen.push(request);
  return seen;
}

describe('LiveRequestQueue', () => {
  it('delivers every kind of request in order and ends after close', async () => {
    const queue = new LiveRequestQueue();
    await queue.sendContent(userContent('hi'));
    await queue.sendRealtime(audio(1));
    await queue.sendActivityStart();
    await queue.sendActivityEnd();
    queue.close();
    expect(await drain(queue)).toEqual([
      { content: userContent('hi') },
      { blob: audio(1) },
      { activityStart: true },
      { activityEnd: true },
      { close: true },
    ]);
  });

  it('wakes a waiting reader when a request arrives', async () => {
    const queue = new LiveRequestQueue();
    const first = queue.next();
    await queue.sendRealtime(audio(7));
    expect(await first).toEqual({ blob: audio(7) });
  });

  it('makes senders wait while full, then lets them in as the reader takes requests', async () => {
    const queue = new LiveRequestQueue({ capacity: 2 });
    await queue.sendRealtime(audio(1));
    await queue.sendRealtime(audio(2));
    expect(queue.trySend({ blob: audio(3) })).toBe(false);
    let thirdSent = false;
    const third = queue.sendRealtime(audio(3)).then(() => {
      thirdSent = true;
    });
    await Promise.resolve();
    expect(thirdSent).toBe(false);
    expect(queue.size).toBe(2);
    expect(await queue.next()).toEqual({ blob: audio(1) });
    await third;
    expect(thirdSent).toBe(true);
    expect(queue.size).toBe(2);
    queue.close();
    expect((await drain(queue)).map((r) => ('blob' in r ? r.blob.data : 'close'))).toEqual([
      '2',
      '3',
      'close',
    ]);
  });

  it('refuses requests after close, including a sender that was waiting for room', async () => {
    const queue = new LiveRequestQueue({ capacity: 1 });
    await queue.sendRealtime(audio(1));
    const waiting = queue.sendRealtime(audio(2));
    queue.close();
    await expect(waiting).rejects.toSatisfy(LiveRequestQueueClosedError.isInstance);
    await expect(queue.sendContent(userContent('late'))).rejects.toSatisfy(
      LiveRequestQueueClosedError.isInstance,
    );
    expect(() => queue.trySend({ activityEnd: true })).toThrow(LiveRequestQueueClosedError);
    queue.close();
    expect(await drain(queue)).toEqual([{ blob: audio(1) }, { close: true }]);
  });

  it('stays in order across its internal compaction over a long stream', async () => {
    const queue = new LiveRequestQueue({ capacity: 8 });
    const reading = drain(queue);
    for (let i = 0; i < 10_000; i += 1) await queue.sendRealtime(audio(i));
    queue.close();
    const seen = await reading;
    expect(seen).toHaveLength(10_001);
    expect(seen[9_999]).toEqual({ blob: audio(9_999) });
  });

  it('rejects a capacity below 1 with a typed error', () => {
    expect(() => new LiveRequestQueue({ capacity: 0 })).toThrow(InvalidArgumentError);
  });
});
