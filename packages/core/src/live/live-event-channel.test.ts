import { describe, expect, it } from 'vitest';

import { createEvent } from '../events';
import { LiveEventChannel } from './live-event-channel';

describe('LiveEventChannel', () => {
  const item = (id: string) => ({ event: createEvent({ invocationId: 'i', author: 'a', id }) });

  it('hands a pushed item to a waiting consumer, queues it otherwise (take() reads it)', async () => {
    const channel = new LiveEventChannel(2);
    const waiting = channel.next();
    expect(channel.push(item('1'))).toBeUndefined();
    expect((await waiting)?.event.id).toBe('1');
    expect(channel.take()).toBeUndefined();
    expect(channel.push(item('2'))).toBeUndefined();
    expect(channel.take()?.event.id).toBe('2');
  });

  it('makes a producer wait over capacity until the consumer takes', async () => {
    const channel = new LiveEventChannel(1);
    expect(channel.push(item('1'))).toBeUndefined();
    const full = channel.push(item('2'));
    expect(full).toBeInstanceOf(Promise);
    let room = false;
    void full!.then(() => (room = true));
    await Promise.resolve();
    expect(room).toBe(false);
    expect(channel.take()?.event.id).toBe('1');
    await full;
    expect(room).toBe(true);
    expect((await channel.next())?.event.id).toBe('2');
  });

  it('ends a waiting consumer, or rejects it with the failure (after the waiting items)', async () => {
    const ended = new LiveEventChannel(4);
    const waiting = ended.next();
    ended.end();
    expect(await waiting).toBeUndefined();
    const failed = new LiveEventChannel(4);
    expect(failed.push(item('1'))).toBeUndefined();
    failed.fail(new Error('broken'));
    expect((await failed.next())?.event.id).toBe('1');
    await expect(failed.next()).rejects.toThrow('broken');
    const rejected = new LiveEventChannel(4);
    const pending = rejected.next();
    rejected.fail(new Error('dropped'));
    await expect(pending).rejects.toThrow('dropped');
  });

  it('offers items to its sink only while the consumer waits and nothing is queued', async () => {
    const channel = new LiveEventChannel(4);
    const sunk: string[] = [];
    channel.sink = ({ event }) => {
      if (event.id === 'declined') return false;
      sunk.push(event.id);
      return true;
    };
    expect(channel.push(item('queued'))).toBeUndefined();
    expect(sunk).toEqual([]);
    expect((await channel.next())?.event.id).toBe('queued');
    const waiting = channel.next();
    expect(channel.push(item('1'))).toBeUndefined();
    expect(channel.push(item('2'))).toBeUndefined();
    expect(sunk).toEqual(['1', '2']);
    expect(channel.push(item('declined'))).toBeUndefined();
    expect((await waiting)?.event.id).toBe('declined');
  });

  it('fails the consumer with what its sink threw', async () => {
    const channel = new LiveEventChannel(4);
    channel.sink = () => {
      throw new Error('socket broke');
    };
    const waiting = channel.next();
    expect(channel.push(item('1'))).toBeUndefined();
    await expect(waiting).rejects.toThrow('socket broke');
    expect(channel.ended).toBe(true);
  });
});
