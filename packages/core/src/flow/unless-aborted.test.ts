import { describe, expect, it, vi } from 'vitest';

import { NEVER_ABORTED } from '../invocation/invocation-context';
import { unlessAborted } from './unless-aborted';

describe('unlessAborted', () => {
  it('resolves with the value, or undefined as soon as the signal aborts', async () => {
    const controller = new AbortController();
    await expect(unlessAborted(Promise.resolve(1), controller.signal)).resolves.toBe(1);
    const pending = unlessAborted(new Promise<number>(() => undefined), controller.signal);
    controller.abort();
    await expect(pending).resolves.toBeUndefined();
  });

  it('registers no listener on the shared never-aborted signal, however many calls wait', async () => {
    const add = vi.spyOn(NEVER_ABORTED, 'addEventListener');
    let release: (value: string) => void = () => undefined;
    const gate = new Promise<string>((resolve) => (release = resolve));
    const waiting = Array.from({ length: 100 }, () => unlessAborted(gate, NEVER_ABORTED));
    release('done');
    await expect(Promise.all(waiting)).resolves.toEqual(Array(100).fill('done'));
    await expect(unlessAborted(Promise.reject(new RangeError('x')), NEVER_ABORTED)).rejects.toThrow(
      RangeError,
    );
    expect(add).not.toHaveBeenCalled();
    add.mockRestore();
  });
});
