import type { Blob, Content, LiveRequest } from '@adk/core';

import { LiveFrameError } from '../errors/live-frame-error';

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * A client frame of `/run_live` as a {@link LiveRequest}: the JSON of Python ADK's
 * `LiveRequest`, in snake_case (what the ADK web UI sends) or camelCase: `{ content }`,
 * `{ blob: { mime_type, data } }` (base64), `{ activity_start: {} }`, `{ activity_end: {} }` or
 * `{ close: true }`.
 *
 * @throws LiveFrameError for anything else.
 */
export function parseLiveRequest(frame: string): LiveRequest {
  let value: unknown;
  try {
    value = JSON.parse(frame);
  } catch (cause) {
    throw new LiveFrameError({ message: 'Invalid live request: expected JSON.', cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LiveFrameError({ message: 'Invalid live request: expected a JSON object.' });
  }
  const body = value as Record<string, unknown>;
  const present = (key: string) => body[key] !== undefined && body[key] !== null;
  if (body['close'] === true) return { close: true };
  if (present('content')) return { content: parseContent(body['content']) };
  if (present('blob')) return { blob: parseBlob(body['blob']) };
  if (present('activity_start') || present('activityStart')) return { activityStart: true };
  if (present('activity_end') || present('activityEnd')) return { activityEnd: true };
  throw new LiveFrameError({
    message:
      'Invalid live request: expected one of content, blob, activity_start, activity_end, close.',
  });
}

function parseContent(value: unknown): Content {
  const content = value as { role?: unknown; parts?: unknown };
  if (
    typeof content !== 'object' ||
    !Array.isArray(content.parts) ||
    content.parts.length === 0 ||
    !content.parts.every((part) => typeof part === 'object' && part !== null)
  ) {
    throw new LiveFrameError({
      message: 'Invalid live request: content needs a non-empty parts array.',
    });
  }
  const parts = (content.parts as Array<Record<string, unknown>>).map(camelPart);
  const role = typeof content.role === 'string' ? content.role : 'user';
  return { role, parts } as Content;
}

/** The web UI sends snake_case parts (`function_response`, `inline_data`...). */
function camelPart(part: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(part)) {
    const camel = key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
    out[camel] =
      typeof value === 'object' && value !== null && camel === 'inlineData'
        ? parseBlob(value)
        : value;
  }
  return out;
}

function parseBlob(value: unknown): Blob {
  const blob = value as Record<string, unknown>;
  const mimeType = blob?.['mime_type'] ?? blob?.['mimeType'];
  const data = blob?.['data'];
  if (typeof mimeType !== 'string' || mimeType === '' || typeof data !== 'string') {
    throw new LiveFrameError({
      message: 'Invalid live request: blob needs a mime_type and base64 data.',
    });
  }
  if (!BASE64.test(data) || data.length % 4 === 1) {
    throw new LiveFrameError({ message: 'Invalid live request: blob data is not base64.' });
  }
  return { mimeType, data };
}
