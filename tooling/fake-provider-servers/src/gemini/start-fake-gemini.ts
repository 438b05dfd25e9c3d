import { startFakeServer } from '../fake-server';
import type { FakeProviderServer, FakeServerOptions } from '../types';
import { FakeCachedContents, type FakeCachedContent } from './fake-cached-contents';
import { geminiDialect } from './gemini-dialect';

/** Options of {@link startFakeGemini}. */
export interface FakeGeminiOptions extends FakeServerOptions {
  /**
   * Smallest cache `cachedContents.create` accepts, in estimated tokens (about 4 characters
   * each); smaller ones get the API's 400 "Cached content is too small". Default 0.
   */
  cachedContentMinTokens?: number;
}

/** A running fake Gemini API. */
export interface FakeGeminiServer extends FakeProviderServer {
  /** The `cachedContents` it holds and that have not expired, oldest first. */
  cachedContents(): FakeCachedContent[];
}

/**
 * Starts a fake Gemini API on 127.0.0.1 (random port). Pass `server.baseURL` as the provider's
 * `baseURL`. Besides the scripted `generateContent` / `streamGenerateContent`, it serves
 * `cachedContents` (create, get, list, delete; expiring by their TTL) and answers requests naming
 * a `cachedContent` as the API does (see `FakeCachedContents`).
 *
 * @example
 * ```ts
 * const server = await startFakeGemini({ script: [{ text: 'Hello!' }] });
 * const gemini = createGemini({ apiKey: 'test', baseURL: server.baseURL });
 * // ... server.requests[0].body holds the generateContent request
 * await server.close();
 * ```
 */
export async function startFakeGemini(options: FakeGeminiOptions = {}): Promise<FakeGeminiServer> {
  const caches = new FakeCachedContents(geminiDialect.error.bind(geminiDialect), {
    ...(options.cachedContentMinTokens === undefined
      ? {}
      : { minTokens: options.cachedContentMinTokens }),
  });
  const server = await startFakeServer(
    {
      ...geminiDialect,
      resource: (request, res) => caches.handle(request, res),
      respond: (reply, request, res, sequence) =>
        geminiDialect.respond(caches.withCacheUsage(reply, request), request, res, sequence),
    },
    options,
  );
  return Object.assign(server, { cachedContents: () => caches.list() });
}
