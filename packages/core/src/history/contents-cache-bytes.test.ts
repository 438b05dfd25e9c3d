import { afterEach, describe, expect, it } from 'vitest';

import { InvalidArgumentError } from '../errors';
import { approximateBytes, approximateEventBytes, createEvent, type Event } from '../events';
import { deepFreeze } from '../sessions/append-helpers';
import { buildContents } from './build-contents';
import {
  buildContentsIncrementally,
  configureContentsCache,
  contentsCacheUsage,
} from './contents-cache';
import { withUserTurnsAtEnds } from './turn-order';

const defaults = configureContentsCache({});
afterEach(() => {
  configureContentsCache(defaults);
});

/** A frozen history of `length` events of about `textBytes` of text each, unique to `tag`. */
function history(tag: string, length: number, textBytes: number): Event[] {
  return Array.from({ length }, (_, index) =>
    deepFreeze(
      createEvent({
        invocationId: tag,
        author: index % 2 === 0 ? 'user' : 'bot',
        content: {
          role: index % 2 === 0 ? 'user' : 'model',
          parts: [{ text: `${tag} ${index} ${'y'.repeat(textBytes)}` }],
        },
      }),
    ),
  );
}

describe('the contents cache is bounded by bytes', () => {
  it('keeps the remembered prefixes within maxBytes, and every answer stays right', () => {
    configureContentsCache({ maxBytes: 1_000_000 });
    // Twenty sessions of about 200 KB each: four fit at most.
    for (let session = 0; session < 20; session++) {
      const events = history(`s${session}`, 40, 5_000);
      for (const end of [30, 35, 40]) {
        const slice = events.slice(0, end);
        const contents = buildContentsIncrementally(slice, { agentName: 'bot' });
        expect(contents).toEqual(withUserTurnsAtEnds(buildContents(slice, { agentName: 'bot' })));
        const usage = contentsCacheUsage();
        expect(usage.bytes).toBeLessThanOrEqual(1_000_000);
        expect(usage.bytes).toBeGreaterThan(0);
      }
    }
    expect(contentsCacheUsage().entries).toBeLessThanOrEqual(5);
  });

  it('keeps about 4 MiB at most by default, so long sessions level the heap off early', () => {
    configureContentsCache(defaults);
    expect(defaults.maxBytes).toBe(4 * 2 ** 20);
    // Ten histories of about 800 KB each: 8 MB offered, half of it fits.
    for (let session = 0; session < 10; session++) {
      const events = history(`d${session}`, 40, 20_000);
      buildContentsIncrementally(events, { agentName: 'bot' });
      expect(contentsCacheUsage().bytes).toBeLessThanOrEqual(4 * 2 ** 20);
    }
    expect(contentsCacheUsage().bytes).toBeGreaterThan(2 * 2 ** 20);
  });

  it('remembers no history larger than maxBytes on its own, and drops entries at once when lowered', () => {
    configureContentsCache({ maxBytes: 16 * 2 ** 20 });
    buildContentsIncrementally(history('kept', 40, 1_000), { agentName: 'bot' });
    expect(contentsCacheUsage().entries).toBeGreaterThan(0);
    configureContentsCache({ maxBytes: 0 });
    expect(contentsCacheUsage()).toEqual({ entries: 0, events: 0, bytes: 0 });
    const events = history('big', 40, 1_000);
    expect(buildContentsIncrementally(events, { agentName: 'bot' })).toEqual(
      withUserTurnsAtEnds(buildContents(events, { agentName: 'bot' })),
    );
    expect(contentsCacheUsage().entries).toBe(0);
  });

  it('refuses a maxBytes that is not a number of bytes', () => {
    expect(() => configureContentsCache({ maxBytes: -1 })).toThrow(InvalidArgumentError);
    expect(() => configureContentsCache({ maxBytes: Number.NaN })).toThrow(InvalidArgumentError);
  });
});

describe('approximateEventBytes', () => {
  it('grows with the text an event holds, two bytes a character beyond Latin-1', () => {
    const [small] = history('a', 1, 10);
    const [large] = history('a', 1, 100_000);
    const latin = approximateBytes('é'.repeat(1000));
    const wide = approximateBytes('€'.repeat(1000));
    expect(approximateEventBytes(large!) - approximateEventBytes(small!)).toBeGreaterThanOrEqual(
      99_990,
    );
    expect(wide - latin).toBe(1000);
    // Remembered per frozen event: the same answer again.
    expect(approximateEventBytes(large!)).toBe(approximateEventBytes(large!));
  });
});
