import { startFakeServer } from '../fake-server';
import type { FakeProviderServer, FakeServerOptions } from '../types';
import { openaiDialect } from './openai-dialect';

/**
 * Starts a fake OpenAI-compatible Chat Completions server on 127.0.0.1 (random port). Pass
 * `server.baseURL` (`<url>/v1`) as the provider's `baseURL`.
 *
 * @example
 * ```ts
 * const server = await startFakeOpenAI({ script: [{ text: 'Hi' }, { error: { status: 429, retryAfter: '1' } }] });
 * const openai = createOpenAI({ apiKey: 'test', baseURL: server.baseURL });
 * ```
 */
export function startFakeOpenAI(options: FakeServerOptions = {}): Promise<FakeProviderServer> {
  return startFakeServer(openaiDialect, options);
}
