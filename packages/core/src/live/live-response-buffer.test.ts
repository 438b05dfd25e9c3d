import { describe, expect, it } from 'vitest';

import { InvalidArgumentError } from '../errors/invalid-argument-error';
import { DIRECT_READER, LiveResponseBuffer } from './live-response-buffer';

describe('LiveResponseBuffer', () => {
  it('hands items to a waiting reader at once, in order, then ends', async () => {
    const buffer = new LiveResponseBuffer<number>();
    const iterator = buffer[Symbol.asyncIterator]();
    const first = iterator.next();
    buffer.push(1);
    buffer.push(2);
    expect(await first).toEqual({ done: false, value: 1 });
    expect(await iterator.next()).toEqual({ done: false, value: 2 });
    const last = iterator.next();
    buffer.end();
    expect(await last).toEqual({ done: true, value: undefined });
    buffer.push(3);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('signals high water once and low water at half, in order; a failure comes after the items', async () => {
    const signals: string[] = [];
    const buffer = new LiveResponseBuffer<number>({
      highWaterMark: 4,
      onHigh: () => signals.push('high'),
      onLow: () => signals.push('low'),
    });
    for (let i = 0; i < 6; i += 1) buffer.push(i);
    expect(signals).toEqual(['high']);
    expect(buffer.size).toBe(6);
    const seen: number[] = [];
    const iterator = buffer[Symbol.asyncIterator]();
    for (let i = 0; i < 4; i += 1) seen.push((await iterator.next()).value as number);
    expect(signals).toEqual(['high', 'low']);
    buffer.fail(new Error('broken'));
    buffer.push(99);
    seen.push((await iterator.next()).value as number, (await iterator.next()).value as number);
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
    await expect(iterator.next()).rejects.toThrow('broken');
    // Thrown once, as a generator would: done afterwards.
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('rejects a waiting reader on failure; the first end or failure wins', async () => {
    const buffer = new LiveResponseBuffer<number>();
    const iterator = buffer[Symbol.asyncIterator]();
    const waiting = iterator.next();
    buffer.fail(new Error('dropped'));
    buffer.fail(new Error('later'));
    buffer.end();
    await expect(waiting).rejects.toThrow('dropped');
    expect(buffer.finished).toBe(true);
  });

  it('has one reader: a second one is refused; return() ends the reading and drops what waits', async () => {
    const buffer = new LiveResponseBuffer<number>();
    buffer.push(1);
    const reader = buffer[Symbol.asyncIterator]();
    await expect(buffer[Symbol.asyncIterator]().next()).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(await reader.return!()).toEqual({ done: true, value: undefined });
    buffer.push(2);
    expect(buffer.size).toBe(0);
    expect(await reader.next()).toEqual({ done: true, value: undefined });
  });

  it('works with for await', async () => {
    const buffer = new LiveResponseBuffer<string>();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const item of buffer) seen.push(item);
    })();
    for (const item of ['a', 'b', 'c']) {
      buffer.push(item);
      await Promise.resolve();
    }
    buffer.end();
    await reading;
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('offers items to a direct reader only while the reader waits; declined ones go to next()', async () => {
    const buffer = new LiveResponseBuffer<number>();
    const direct: number[] = [];
    buffer[DIRECT_READER]((item) => {
      if (item % 2 === 1) return false;
      direct.push(item);
      return true;
    });
    const iterator = buffer[Symbol.asyncIterator]();
    // Nobody waits: queued, not offered.
    buffer.push(0);
    expect(direct).toEqual([]);
    expect(await iterator.next()).toEqual({ done: false, value: 0 });
    const waiting = iterator.next();
    buffer.push(2);
    buffer.push(4);
    expect(direct).toEqual([2, 4]);
    buffer.push(5);
    expect(await waiting).toEqual({ done: false, value: 5 });
    // Removed: items go through next() again.
    buffer[DIRECT_READER](undefined);
    const next = iterator.next();
    buffer.push(6);
    expect(await next).toEqual({ done: false, value: 6 });
    expect(direct).toEqual([2, 4]);
  });

  it('fails the reader with what a direct reader threw', async () => {
    const buffer = new LiveResponseBuffer<number>();
    buffer[DIRECT_READER](() => {
      throw new Error('mapping broke');
    });
    const iterator = buffer[Symbol.asyncIterator]();
    const waiting = iterator.next();
    buffer.push(1);
    await expect(waiting).rejects.toThrow('mapping broke');
    expect(buffer.finished).toBe(true);
  });
});
