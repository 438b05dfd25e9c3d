import { NEVER_ABORTED } from '../invocation/invocation-context';

/**
 * `promise`'s value, or `undefined` as soon as `signal` aborts, without waiting for the promise
 * (whose rejection is then ignored). Keeps an aborted run prompt even when a tool or a model
 * ignores the signal.
 */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal === NEVER_ABORTED) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.resolve(undefined);
  }
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) resolve(undefined);
        else reject(error);
      },
    );
  });
}
