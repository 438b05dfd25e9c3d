import type { IncomingMessage } from 'node:http';

import {
  isRetryableStatus,
  ModelApiError,
  ModelConnectionError,
  ModelStreamError,
} from '@adk/model-http';

import type { RealtimeErrorBody } from './realtime-wire';

interface Where {
  provider: string;
  model: string;
}

/** Error event codes that are races of a normal conversation, not failures. */
export const BENIGN_REALTIME_ERROR_CODES: ReadonlySet<string> = new Set([
  // `response.cancel` sent on barge-in after the server had already cancelled (server VAD).
  'response_cancel_not_active',
]);

/** A WebSocket upgrade refused with an HTTP status (401 bad key, 429, 5xx...). */
export async function upgradeRefused(
  where: Where,
  response: IncomingMessage,
): Promise<ModelApiError> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size <= 4096) chunks.push(buffer);
    }
  } catch {
    // A body that cannot be read leaves the status as the only information.
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let body: { error?: RealtimeErrorBody } | undefined;
  try {
    body = JSON.parse(text) as { error?: RealtimeErrorBody };
  } catch {
    body = undefined;
  }
  const status = response.statusCode ?? 0;
  const requestId = response.headers['x-request-id'];
  return new ModelApiError({
    ...where,
    status,
    retryable: isRetryableStatus(status, response.headers),
    providerMessage: body?.error?.message ?? (text.trim().slice(0, 500) || undefined),
    providerErrorType: body?.error?.code ?? body?.error?.type,
    responseBody: text.slice(0, 4096),
    requestId: Array.isArray(requestId) ? requestId[0] : requestId,
  });
}

/** An `error` event from the server. `server_error` is retryable; request errors are not. */
export function errorEvent(where: Where, error: RealtimeErrorBody | undefined): ModelStreamError {
  const type = error?.type ?? 'unknown';
  return new ModelStreamError({
    ...where,
    kind: 'provider-error',
    message: `${error?.message ?? 'error event without a message'} (type ${type}${error?.code ? `, code ${error.code}` : ''})`,
    providerErrorType: error?.code ?? type,
    // A session past its time limit goes on in a new connection (with the history).
    retryable:
      type === 'server_error' ||
      type === 'rate_limit_exceeded' ||
      error?.code === 'session_expired',
  });
}

/** A frame that is not a JSON server event. */
export function malformedFrame(where: Where, frame: string, cause?: unknown): ModelStreamError {
  return new ModelStreamError({
    ...where,
    kind: 'malformed',
    message: 'a frame is not a JSON Realtime server event',
    chunk: frame,
    cause,
  });
}

/**
 * The server closed the connection without being asked (any code but 1000), or the TCP
 * connection broke (1006). A session can be continued on a new connection with its history.
 */
export function closedByServer(where: Where, code: number, reason: string): ModelStreamError {
  return new ModelStreamError({
    ...where,
    kind: 'interrupted',
    message: `the server closed the connection with code ${code}${reason ? ` (${reason})` : ''}`,
    // Policy violations and unsupported data will fail again the same way.
    retryable: code !== 1003 && code !== 1007 && code !== 1008 && code !== 1009,
  });
}

/**
 * A socket error: before the upgrade the server could not be reached; after it, either the server
 * broke the WebSocket protocol (ws's `WS_ERR_*` codes: a malformed frame) or the connection broke.
 */
export function socketError(
  where: Where,
  url: string,
  upgraded: boolean,
  cause: Error & { code?: string },
): ModelConnectionError | ModelStreamError {
  if (!upgraded)
    return new ModelConnectionError({ ...where, url: url.split('?')[0] as string, cause });
  return new ModelStreamError({
    ...where,
    kind: cause.code?.startsWith('WS_ERR_') === true ? 'malformed' : 'interrupted',
    message: cause.message,
    cause,
  });
}
