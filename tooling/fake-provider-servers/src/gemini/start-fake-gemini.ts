import { startFakeServer } from '../fake-server';
import type { FakeProviderServer, FakeServerOptions } from '../types';
import { geminiDialect } from './gemini-dialect';

/**
 * Starts a fake Gemini API on 127.0.0.1 (random port). Pass `server.baseURL` as the provider's
 * `baseURL`.
 *
 * @example
 * ```ts
 * const server = await startFakeGemini({ script: [{ text: 'Hello!' }] });
 * const gemini = createGemini({ apiKey: 'test', baseURL: server.baseURL });
 * // ... server.requests[0].body holds the generateContent request
 * await server.close();
 * ```
 */
export function startFakeGemini(options: FakeServerOptions = {}): Promise<FakeProviderServer> {
  return startFakeServer(geminiDialect, options);
}
