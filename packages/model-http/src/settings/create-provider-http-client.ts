import { resolveCircuitBreaker } from '../circuit-breaker/resolve-circuit-breaker';
import { HttpClient } from '../client/http-client';
import type { ProviderErrorInfo } from '../client/http-client-options';
import type { ProviderHttpSettings } from './provider-http-settings';

/** Builds the {@link HttpClient} of a provider from its factory settings. */
export function createProviderHttpClient(
  provider: string,
  settings: ProviderHttpSettings,
  defaults: {
    baseURL: string;
    headers?: Record<string, string>;
    parseErrorBody?: (body: unknown) => ProviderErrorInfo | undefined;
  },
): HttpClient {
  return new HttpClient({
    provider,
    baseURL: settings.baseURL ?? defaults.baseURL,
    headers: { ...defaults.headers, ...settings.headers },
    query: settings.query,
    timeoutMs: settings.timeoutMs,
    streamIdleTimeoutMs: settings.streamIdleTimeoutMs,
    retry: { ...settings.retry, maxRetries: settings.maxRetries ?? settings.retry?.maxRetries },
    circuitBreaker: resolveCircuitBreaker(settings.circuitBreaker),
    dispatcher: settings.dispatcher,
    parseErrorBody: defaults.parseErrorBody,
  });
}
