import { defaultErrorParser, type ProviderErrorInfo } from '@adk/model-http';

/**
 * Reads a Gemini error body: `{error: {code, message, status, details}}`. The delay of a
 * `google.rpc.RetryInfo` detail (`"retryDelay": "21s"`) becomes `retryAfterMs`, because quota errors
 * usually state it there rather than in a `Retry-After` header.
 */
export function parseGeminiError(body: unknown): ProviderErrorInfo | undefined {
  const info = defaultErrorParser(body);
  const details = (body as { error?: { details?: unknown } } | undefined)?.error?.details;
  if (!info || !Array.isArray(details)) return info;
  for (const detail of details as Array<Record<string, unknown>>) {
    const type = detail['@type'];
    const delay = detail.retryDelay;
    if (
      typeof type === 'string' &&
      type.endsWith('google.rpc.RetryInfo') &&
      typeof delay === 'string'
    ) {
      const match = /^(\d+(?:\.\d+)?)s$/.exec(delay.trim());
      if (match) info.retryAfterMs = Math.round(Number(match[1]) * 1000);
    }
  }
  return info;
}
