import type { NodeContextImpl } from './node-context-impl';
import { NodeTimeoutError } from '../errors/node-timeout-error';

/**
 * @internal `running` under a timeout. Once the timer fired the timeout wins: a value returned late, or a
 * rejection caused by the aborted signal (its reason is the timeout error), is reported as the
 * `NodeTimeoutError`, as Python's `wait_for` reports its timeout.
 */
export async function withTimeout(
  running: unknown,
  nodeCtx: NodeContextImpl,
  timeout: AbortController,
  timeoutMs: number,
): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  let expiredError: NodeTimeoutError | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      nodeCtx.closed = true;
      expiredError = new NodeTimeoutError({ nodeName: nodeCtx.nodeName, timeoutMs });
      reject(expiredError);
      timeout.abort(expiredError);
    }, timeoutMs);
  });
  try {
    const value = await Promise.race([running, expired]);
    if (expiredError) throw expiredError;
    return value;
  } catch (error) {
    throw expiredError ?? error;
  } finally {
    clearTimeout(timer);
  }
}

/** @internal Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
