import { resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';

import { compileErrors, dereference, validate, type ParserOptions } from '@readme/openapi-parser';
import { parse as parseYaml } from 'yaml';

import { OpenApiSpecError } from '../errors';
import type { OpenApiDocument } from './types';

/** A document ready to become tools, and where relative server URLs resolve from. */
export interface LoadedDocument {
  document: OpenApiDocument;
  /** The document's own URL (`file:` for a path), for relative `servers`; `undefined` for objects. */
  documentUrl: string | undefined;
  source: string;
}

/** How to read the document. */
export interface LoadDocumentOptions {
  /** Validate against the OpenAPI schema first (default true): an invalid document is refused. */
  validate?: boolean;
  /** Headers sent when the document (or a `$ref`) is fetched over HTTP. */
  headers?: Record<string, string>;
  /** Most milliseconds to fetch the document or one of its references (default 10 s). */
  timeoutMs?: number;
  /** The `fetch` that reads a document given by URL (default the global one). */
  fetch?: typeof fetch;
}

/**
 * Read, validate and dereference an OpenAPI 3.0 or 3.1 document with `@readme/openapi-parser`:
 * `$ref`s to other files and URLs are followed, circular schemas kept as circular objects.
 * @throws OpenApiSpecError when it cannot be read, is not OpenAPI 3, or is invalid.
 */
export async function loadDocument(
  spec: string | object,
  options: LoadDocumentOptions = {},
): Promise<LoadedDocument> {
  const isUrl = typeof spec === 'string' && /^https?:\/\//i.test(spec);
  const source = typeof spec === 'string' ? spec : '(object)';
  // A document given by URL is fetched here: the parser's own HTTP reader refuses private and
  // loopback hosts (its SSRF guard, which cannot be turned off), and the document's address is
  // the developer's choice. The `$ref`s inside it still go through the parser's guarded reader.
  const input =
    typeof spec !== 'string'
      ? spec
      : isUrl
        ? await fetchDocument(spec, options)
        : resolvePath(spec);
  const documentUrl = isUrl
    ? (spec as string)
    : typeof input === 'string'
      ? pathToFileURL(input).href
      : undefined;
  const parserOptions: ParserOptions = {
    dereference: { circular: true },
    resolve: {
      ...(typeof input === 'string' && !isUrl ? { file: true } : {}),
      http: { timeout: options.timeoutMs ?? 10_000, headers: options.headers ?? null },
    },
  };
  // The parser mutates objects it is given: work on a copy of the caller's.
  const copy = (): string | object => (typeof input === 'string' ? input : structuredClone(input));
  if (options.validate !== false) {
    let result;
    try {
      result = await validate(copy() as never, parserOptions);
    } catch (cause) {
      throw new OpenApiSpecError({ source, problem: readProblem(cause), cause });
    }
    if (!result.valid) {
      throw new OpenApiSpecError({
        source,
        problem: 'not a valid OpenAPI document.',
        problems: compileErrors(result)
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== '' && !/^OpenAPI schema validation failed/.test(line)),
      });
    }
  }
  let document: OpenApiDocument;
  try {
    document = (await dereference(copy() as never, parserOptions)) as unknown as OpenApiDocument;
  } catch (cause) {
    throw new OpenApiSpecError({ source, problem: readProblem(cause), cause });
  }
  if (typeof document.openapi !== 'string' || !/^3\.[01]\./.test(document.openapi)) {
    throw new OpenApiSpecError({
      source,
      problem: `only OpenAPI 3.0 and 3.1 are supported (this document declares ${
        typeof document.openapi === 'string'
          ? `openapi ${document.openapi}`
          : 'no "openapi" version, e.g. Swagger 2.0'
      }).`,
    });
  }
  return { document, documentUrl, source };
}

async function fetchDocument(url: string, options: LoadDocumentOptions): Promise<object> {
  let text: string;
  try {
    const response = await (options.fetch ?? globalThis.fetch)(url, {
      headers: { accept: 'application/json, application/yaml, text/yaml, */*', ...options.headers },
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    if (!response.ok) {
      throw new OpenApiSpecError({
        source: url,
        problem: `cannot be read: HTTP ${response.status} ${response.statusText}`.trim(),
      });
    }
    text = await response.text();
  } catch (cause) {
    if (OpenApiSpecError.isInstance(cause)) throw cause;
    throw new OpenApiSpecError({ source: url, problem: readProblem(cause), cause });
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (cause) {
    throw new OpenApiSpecError({ source: url, problem: readProblem(cause), cause });
  }
  if (value === null || typeof value !== 'object') {
    throw new OpenApiSpecError({ source: url, problem: 'is not a JSON or YAML object.' });
  }
  return value;
}

function readProblem(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  return `cannot be read: ${message.split('\n')[0]}`;
}
