import { InvalidArgumentError, type LiveConnection, type LlmRequest } from '@adk/core';

import { OpenAIRealtimeConnection } from './openai-realtime-connection';
import { toRealtimeSession } from './to-realtime-session';

/** Default {@link OpenAIRealtimeSettings.connectTimeoutMs}. */
export const OPENAI_REALTIME_CONNECT_TIMEOUT_MS = 15_000;

/** Realtime settings of `createOpenAI({ realtime })`. */
export interface OpenAIRealtimeSettings {
  /**
   * Longest wait, in milliseconds, from opening the WebSocket to the server confirming the
   * session (`session.created`, then `session.updated`). Default 15 000.
   */
  connectTimeoutMs?: number;
  /** Longest wait for the server's close frame after `close()` before the socket is destroyed. Default 2 000. */
  closeTimeoutMs?: number;
  /**
   * Responses held for a slow reader of `receive()` before the connection stops reading the
   * socket (TCP back-pressure then slows the server); reading resumes at half. Default 512.
   */
  highWaterMark?: number;
}

/** Where `connectLive` connects: derived from the provider's `baseURL`, headers and query. */
export interface OpenAIRealtimeOptions extends OpenAIRealtimeSettings {
  /** The provider's HTTP base URL (`https://api.openai.com/v1`); `/realtime` is appended. */
  baseURL: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

/** Builds the endpoint of one Realtime connection and opens it. */
export function connectOpenAIRealtime(
  request: LlmRequest,
  options: {
    provider: string;
    model: string;
    apiModelId: string;
    apiKey: string | undefined;
    apiKeyHeader: 'authorization' | 'api-key';
    realtime: OpenAIRealtimeOptions | undefined;
    signal: AbortSignal | undefined;
  },
): Promise<LiveConnection> {
  const realtime = options.realtime;
  if (!realtime) {
    throw new InvalidArgumentError({
      message: `Model "${options.model}" has no Realtime endpoint; create it with createOpenAI() to use connectLive.`,
      argument: 'realtime',
    });
  }
  const headers: Record<string, string> = { ...realtime.headers };
  if (options.apiKey) {
    if (options.apiKeyHeader === 'api-key') headers['api-key'] = options.apiKey;
    else headers.authorization = `Bearer ${options.apiKey}`;
  }
  const session = toRealtimeSession(request);
  return OpenAIRealtimeConnection.open(
    {
      provider: options.provider,
      model: options.model,
      url: realtimeURL(realtime.baseURL, options.apiModelId, realtime.query),
      headers,
      connectTimeoutMs: realtime.connectTimeoutMs ?? OPENAI_REALTIME_CONNECT_TIMEOUT_MS,
      closeTimeoutMs: realtime.closeTimeoutMs ?? 2_000,
      ...(realtime.highWaterMark !== undefined ? { highWaterMark: realtime.highWaterMark } : {}),
    },
    session,
    {
      outputTranscription: request.liveConnectConfig?.outputAudioTranscription !== undefined,
      interrupts:
        request.liveConnectConfig?.realtimeInputConfig?.activityHandling !== 'NO_INTERRUPTION',
      signal: options.signal,
    },
  );
}

/**
 * `{baseURL}/realtime?model=<id>` with `http(s)` turned into `ws(s)`, plus the provider's extra
 * query parameters (Azure OpenAI's v1 API takes the deployment name as `model`).
 */
export function realtimeURL(
  baseURL: string,
  model: string,
  query: Record<string, string> = {},
): string {
  const url = new URL(`${baseURL.replace(/\/+$/, '')}/realtime`);
  if (url.protocol === 'https:') url.protocol = 'wss:';
  else if (url.protocol === 'http:') url.protocol = 'ws:';
  url.searchParams.set('model', model);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.toString();
}
