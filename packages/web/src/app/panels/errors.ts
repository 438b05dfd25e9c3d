import { ApiError } from '../api/api-error';
import { byId, h } from '../util/dom';

/** One line for any thrown value: typed API errors keep their code, message and request. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.describe();
  if (error instanceof Error) {
    // The browser's own wording for an unreachable server says nothing useful.
    if (/^(Failed to fetch|NetworkError|Load failed)/.test(error.message))
      return `Cannot reach the ADK server at ${location.origin}: it may have stopped, or the network is down. (${error.message})`;
    return `${error.name && error.name !== 'Error' ? `${error.name}: ` : ''}${error.message}`;
  }
  return String(error);
}

/**
 * Show an error above the conversation, scrolled into view, until dismissed. `context` says what
 * was being done ("Loading sessions").
 */
export function showError(error: unknown, context?: string): void {
  const list = byId('errors');
  const text = describeError(error);
  const item = h(
    'div',
    { class: 'error-item', 'data-code': error instanceof ApiError ? (error.code ?? '') : '' },
    h('span', { class: 'error-text' }, context ? `${context}: ${text}` : text),
    h(
      'button',
      {
        type: 'button',
        class: 'dismiss',
        'aria-label': 'Dismiss',
        onclick: () => item.remove(),
      },
      '✕',
    ),
  );
  list.append(item);
  item.scrollIntoView({ block: 'nearest' });
}

/** Run `task`, showing its failure with {@link showError}. */
export async function guard<T>(context: string, task: () => Promise<T>): Promise<T | undefined> {
  try {
    return await task();
  } catch (error) {
    showError(error, context);
    return undefined;
  }
}
