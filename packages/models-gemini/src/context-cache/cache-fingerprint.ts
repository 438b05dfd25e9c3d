import { createHash } from 'node:crypto';

import type { GeminiRequest } from '../convert/gemini-wire';

/** JSON with object keys sorted, so equal values always serialise alike. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The fingerprint of what a cache of `body` holding its first `contentsCount` contents stores: its
 * system instruction, tools, tool config and those contents, hashed (SHA-256, 16 hex digits, as
 * Python ADK's). Two requests with the same fingerprint can share the cache.
 */
export function cacheFingerprint(body: GeminiRequest, contentsCount: number): string {
  const prefix = {
    systemInstruction: body.systemInstruction,
    tools: body.tools,
    toolConfig: body.toolConfig,
    contents: body.contents.slice(0, contentsCount),
  };
  return createHash('sha256').update(stableJson(prefix)).digest('hex').slice(0, 16);
}
