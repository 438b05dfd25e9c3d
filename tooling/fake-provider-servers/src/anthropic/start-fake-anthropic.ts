import { startFakeServer } from '../fake-server';
import type { FakeProviderServer, FakeServerOptions } from '../types';
import { anthropicDialect } from './anthropic-dialect';

/**
 * Starts a fake Anthropic Messages API on 127.0.0.1 (random port). Pass `server.baseURL`
 * (`<url>/v1`) as the provider's `baseURL`.
 *
 * @example
 * ```ts
 * const server = await startFakeAnthropic({ script: [{ toolCalls: [{ name: 'f', args: {} }] }] });
 * const anthropic = createAnthropic({ apiKey: 'test', baseURL: server.baseURL });
 * ```
 */
export function startFakeAnthropic(options: FakeServerOptions = {}): Promise<FakeProviderServer> {
  return startFakeServer(anthropicDialect, options);
}
