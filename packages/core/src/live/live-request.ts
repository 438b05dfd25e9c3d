import type { Blob, Content } from '../content';

/**
 * One message from the user side of a live run, as Python ADK's `LiveRequest`: exactly one of
 * whole content (a text turn), a realtime blob (a PCM audio chunk, a JPEG frame), a manual
 * activity signal, or `close`.
 */
export type LiveRequest =
  | { content: Content }
  | { blob: Blob }
  | { activityStart: true }
  | { activityEnd: true }
  | { close: true };
