import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

import type { FakeReply, RecordedRequest } from '../types';

/** One stored `CachedContent`. */
interface StoredCache {
  name: string;
  model: string;
  displayName: string | undefined;
  createTime: string;
  updateTime: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** Estimated tokens of what the cache holds. */
  tokens: number;
}

/** A cache the fake server holds, as tests inspect it. */
export interface FakeCachedContent {
  name: string;
  model: string;
  /** Estimated tokens (about 4 characters each) of its contents, system instruction and tools. */
  tokens: number;
  expiresAt: number;
}

const NOT_FOUND = 'CachedContent not found (or permission denied)';
const CACHE_CONFLICT =
  'CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config.\n\nProposed fix: move those values to CachedContent from GenerateContent request.';

/** `…/cachedContents` and `…/cachedContents/{id}` on the Gemini API and Vertex AI. */
const COLLECTION = /^(?:\/v1beta|\/v1(?:\/projects\/[^/]+\/locations\/[^/]+)?)\/cachedContents$/;
const ITEM = /^(?:\/v1beta|\/v1(?:\/projects\/[^/]+\/locations\/[^/]+)?)\/cachedContents\/([^/]+)$/;
const GENERATE = /\/models\/([^/:]+):(?:generateContent|streamGenerateContent)$/;

type ErrorWriter = (res: ServerResponse, status: number, message: string, type?: string) => void;

function estimateTokens(value: unknown): number {
  return value === undefined ? 0 : Math.ceil(JSON.stringify(value).length / 4);
}

function parseTtlMs(ttl: unknown): number | undefined {
  if (typeof ttl !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(ttl);
  return match ? Number(match[1]) * 1000 : undefined;
}

/**
 * The `cachedContents` resource of a fake Gemini server (create, get, list, delete, with TTLs that
 * expire by the clock), and the checks the API applies to a `generateContent` naming a cache: it
 * must exist, be the request's model, and the request must not also set a system instruction,
 * tools or tool config. Answers to a request through a cache report its tokens in
 * `usageMetadata.cachedContentTokenCount` (counted in `promptTokenCount` too, as the API does).
 */
export class FakeCachedContents {
  readonly #caches = new Map<string, StoredCache>();
  readonly #error: ErrorWriter;
  readonly #minTokens: number;

  constructor(error: ErrorWriter, options: { minTokens?: number } = {}) {
    this.#error = error;
    this.#minTokens = options.minTokens ?? 0;
  }

  /** The live caches, oldest first. */
  list(): FakeCachedContent[] {
    return [...this.#caches.values()]
      .filter((cache) => this.#live(cache))
      .map(({ name, model, tokens, expiresAt }) => ({ name, model, tokens, expiresAt }));
  }

  /** A `ProviderDialect.resource` hook. */
  handle(request: RecordedRequest, res: ServerResponse): boolean {
    const { method, path, body } = request;
    if (COLLECTION.test(path)) {
      if (method === 'POST') this.#create(body, res);
      else if (method === 'GET')
        this.#json(res, {
          cachedContents: this.list().map((c) => this.#resource(this.#caches.get(c.name)!)),
        });
      else return false;
      return true;
    }
    const item = ITEM.exec(path);
    if (item) {
      const name = `cachedContents/${decodeURIComponent(item[1]!)}`;
      const cache = this.#caches.get(name);
      if (!cache || !this.#live(cache)) {
        this.#error(res, 403, NOT_FOUND, 'PERMISSION_DENIED');
        return true;
      }
      if (method === 'GET') this.#json(res, this.#resource(cache));
      else if (method === 'DELETE') {
        this.#caches.delete(name);
        this.#json(res, {});
      } else return false;
      return true;
    }
    if (method === 'POST' && GENERATE.test(path)) return this.#checkGenerate(request, res);
    return false;
  }

  /** `reply` with the cache's tokens in its usage when `request` goes through a cache. */
  withCacheUsage(reply: FakeReply, request: RecordedRequest): FakeReply {
    const cache = this.#cacheOf(request.body);
    if (!cache) return reply;
    const usage = reply.usage ?? { inputTokens: 12, outputTokens: 8 };
    return {
      ...reply,
      usage: {
        ...usage,
        inputTokens: usage.inputTokens + cache.tokens,
        cachedTokens: cache.tokens,
      },
    };
  }

  #checkGenerate(request: RecordedRequest, res: ServerResponse): boolean {
    const body = request.body as Record<string, unknown> | undefined;
    const named = body?.cachedContent;
    if (named === undefined) return false;
    const cache = this.#cacheOf(body);
    if (!cache) {
      this.#error(res, 403, NOT_FOUND, 'PERMISSION_DENIED');
      return true;
    }
    if (
      body!.systemInstruction !== undefined ||
      body!.tools !== undefined ||
      body!.toolConfig !== undefined
    ) {
      this.#error(res, 400, CACHE_CONFLICT, 'INVALID_ARGUMENT');
      return true;
    }
    const model = GENERATE.exec(request.path)![1]!;
    if (!cache.model.endsWith(`models/${decodeURIComponent(model)}`)) {
      this.#error(
        res,
        400,
        `Model ${model} does not match the cached content's model ${cache.model}.`,
        'INVALID_ARGUMENT',
      );
      return true;
    }
    return false;
  }

  #cacheOf(body: unknown): StoredCache | undefined {
    const named = (body as { cachedContent?: unknown } | undefined)?.cachedContent;
    if (typeof named !== 'string') return undefined;
    const cache = this.#caches.get(named.slice(named.indexOf('cachedContents/')));
    return cache && this.#live(cache) ? cache : undefined;
  }

  #create(body: unknown, res: ServerResponse): void {
    const input = body as Record<string, unknown> | undefined;
    if (!input || typeof input.model !== 'string' || !/(^|\/)models\/[^/]+$/.test(input.model)) {
      this.#error(res, 400, 'model must name a model: models/{model}.', 'INVALID_ARGUMENT');
      return;
    }
    const ttlMs =
      input.ttl !== undefined
        ? parseTtlMs(input.ttl)
        : typeof input.expireTime === 'string'
          ? Date.parse(input.expireTime) - Date.now()
          : 3_600_000;
    if (ttlMs === undefined || !(ttlMs > 0)) {
      this.#error(
        res,
        400,
        `Invalid ttl: ${JSON.stringify(input.ttl ?? input.expireTime)}.`,
        'INVALID_ARGUMENT',
      );
      return;
    }
    if (input.contents !== undefined && !Array.isArray(input.contents)) {
      this.#error(res, 400, 'contents must be a list.', 'INVALID_ARGUMENT');
      return;
    }
    const tokens =
      estimateTokens(input.contents) +
      estimateTokens(input.systemInstruction) +
      estimateTokens(input.tools);
    if (tokens < this.#minTokens) {
      this.#error(
        res,
        400,
        `Cached content is too small. total_token_count=${tokens}, min_total_token_count=${this.#minTokens}`,
        'INVALID_ARGUMENT',
      );
      return;
    }
    const now = new Date().toISOString();
    const cache: StoredCache = {
      name: `cachedContents/${randomUUID().replaceAll('-', '').slice(0, 16)}`,
      model: input.model,
      displayName: typeof input.displayName === 'string' ? input.displayName : undefined,
      createTime: now,
      updateTime: now,
      expiresAt: Date.now() + ttlMs,
      tokens,
    };
    this.#caches.set(cache.name, cache);
    this.#json(res, this.#resource(cache));
  }

  #live(cache: StoredCache): boolean {
    return Date.now() < cache.expiresAt;
  }

  #resource(cache: StoredCache): Record<string, unknown> {
    const resource: Record<string, unknown> = {
      name: cache.name,
      model: cache.model,
      createTime: cache.createTime,
      updateTime: cache.updateTime,
      expireTime: new Date(cache.expiresAt).toISOString(),
      usageMetadata: { totalTokenCount: cache.tokens },
    };
    if (cache.displayName !== undefined) resource.displayName = cache.displayName;
    return resource;
  }

  #json(res: ServerResponse, body: unknown): void {
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(body));
  }
}
