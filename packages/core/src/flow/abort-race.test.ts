import { getEventListeners } from 'node:events';

import { describe, expect, it } from 'vitest';

import { AbortRace } from './abort-race';

describe('AbortRace', () => {
  it('gives each promise its value with one abort listener for the whole loop', async () => {
    const controller = new AbortController();
    const race = new AbortRace(controller.signal);
    for (let i = 0; i < 100; i++) expect(await race.race(Promise.resolve(i))).toBe(i);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    race.dispose();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('resolves undefined as soon as the signal aborts, without waiting for the promise', async () => {
    const controller = new AbortController();
    const race = new AbortRace(controller.signal);
    let reject!: (error: Error) => void;
    const pending = race.race(new Promise<number>((_, fail) => (reject = fail)));
    controller.abort();
    expect(await pending).toBeUndefined();
    // The promise failing later is not an unhandled rejection.
    reject(new Error('late'));
    expect(await race.race(Promise.resolve(1))).toBeUndefined();
  });

  it('passes a rejection on while the signal is not aborted', async () => {
    const race = new AbortRace(new AbortController().signal);
    await expect(race.race(Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});
