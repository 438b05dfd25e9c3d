import { h } from '../util/dom';

/** What the page shows once a confirmation's deadline has passed without an answer. */
export const DEADLINE_PASSED_TEXT = 'Deadline passed: the call is denied.';

/**
 * The deadline of a confirmation request (ms since the epoch): `args.expiresAt`, an ISO time the
 * server stores with the request when its policy or tool has a timeout. `undefined` without one.
 */
export function confirmationDeadline(args: Record<string, unknown>): number | undefined {
  const value = args.expiresAt ?? args.expires_at;
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

/** The line under a pending confirmation that says by when to answer. */
export function deadlineLine(deadline: number): HTMLElement {
  const at = new Date(deadline);
  return h(
    'time',
    { class: 'deadline', datetime: at.toISOString(), title: at.toISOString() },
    ` Answer by ${at.toLocaleString()}, or it is denied.`,
  );
}

/** The note that replaces the buttons once the deadline has passed. */
export function deadlinePassedNote(): HTMLElement {
  return h('div', { class: 'note deadline-passed' }, DEADLINE_PASSED_TEXT);
}

/** True for the framework's answer closing a request whose deadline passed. */
export function isExpiryAnswer(response: Record<string, unknown> | undefined): boolean {
  const payload = response?.payload as { expired?: unknown } | undefined;
  return response?.confirmed === false && payload?.expired === true;
}
