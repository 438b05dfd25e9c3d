import { send } from './client';
import { readFrames } from './sse';

/** The stream a panel follows while it shows, one at a time. */
export interface StreamFollower {
  /**
   * Follow `url` (closing the stream followed before), reconnecting after the wait whenever it
   * ends. Returns false, and does nothing, when `url` is followed already.
   */
  open(url: string): boolean;
  /** Stop following (the panel is hidden). */
  close(): void;
}

/**
 * A follower of a panel's `text/event-stream` route (the jobs stream, the memories stream): one
 * stream at a time, read until closed, reconnected `reconnectMs` after it ends or fails.
 *
 * @param onFrame Each frame's JSON value; not called once the stream is closed.
 * @param onFailure The request or the stream failed (not by closing it): true to reconnect after
 *   the wait, false to stop following.
 * @param onStatus Where the stream is: `connecting` (each attempt), `live` (the server answered)
 *   or `ended` (the server closed it; a reconnect follows).
 */
export function streamFollower(
  reconnectMs: number,
  onFrame: (value: unknown) => void,
  onFailure: (error: unknown) => boolean,
  onStatus?: (state: 'connecting' | 'live' | 'ended') => void,
): StreamFollower {
  let url: string | undefined;
  let controller: AbortController | undefined;
  const close = (): void => {
    controller?.abort();
    url = controller = undefined;
  };
  async function follow(from: string, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      onStatus?.('connecting');
      try {
        const response = await send(from, { signal });
        onStatus?.('live');
        await readFrames(response, (value) => {
          if (!signal.aborted) onFrame(value);
        });
        if (signal.aborted) return;
        onStatus?.('ended');
      } catch (error) {
        if (signal.aborted || !onFailure(error)) return;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, reconnectMs);
        signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
  }
  return {
    open(next) {
      if (next === url) return false;
      close();
      url = next;
      controller = new AbortController();
      void follow(next, controller.signal);
      return true;
    },
    close,
  };
}
