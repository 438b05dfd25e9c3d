import type { ArgumentTarget, OperationSpec } from '../spec/operations';

/** An HTTP request for one call of an operation. */
export interface BuiltRequest {
  url: URL;
  method: string;
  headers: Headers;
  body: string | FormData | undefined;
}

/**
 * The request for `args` (already validated against the tool's parameters), serialised as the
 * OpenAPI parameter styles say: path `simple`, query `form` (arrays repeated unless
 * `explode: false`, `deepObject`, `spaceDelimited`, `pipeDelimited`), header `simple`, cookie
 * `form`; the body as JSON, form-urlencoded, multipart or plain text per its media type.
 */
export function buildRequest(
  spec: OperationSpec,
  args: Record<string, unknown>,
  serverUrl: URL,
): BuiltRequest {
  let path = spec.path;
  const query = new URLSearchParams();
  const headers = new Headers();
  const cookies: string[] = [];
  const bodyProperties: Record<string, unknown> = {};
  let body: unknown;
  let hasBody = false;
  for (const target of spec.targets) {
    const value = args[target.argument];
    if (value === undefined) continue;
    switch (target.in) {
      case 'path':
        path = path.split(`{${target.name}}`).join(encodeURIComponent(simple(value, target)));
        break;
      case 'query':
        addQuery(query, target, value);
        break;
      case 'header':
        headers.set(target.name, simple(value, target));
        break;
      case 'cookie':
        cookies.push(`${target.name}=${encodeURIComponent(simple(value, target))}`);
        break;
      case 'body-property':
        bodyProperties[target.name] = value;
        hasBody = true;
        break;
      case 'body':
        body = value;
        hasBody = true;
        break;
    }
  }
  if (cookies.length > 0) headers.set('cookie', cookies.join('; '));
  const base = serverUrl.href.endsWith('/') ? serverUrl.href : `${serverUrl.href}/`;
  const url = new URL(path.replace(/^\//, ''), base);
  for (const [key, value] of query) url.searchParams.append(key, value);
  const payload = body === undefined && hasBody ? bodyProperties : body;
  return {
    url,
    method: spec.method.toUpperCase(),
    headers,
    body: hasBody ? encodeBody(payload, spec.bodyMediaType, headers) : undefined,
  };
}

function simple(value: unknown, target: ArgumentTarget): string {
  if (Array.isArray(value)) return value.map(String).join(',');
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return target.explode
      ? entries.map(([key, item]) => `${key}=${String(item)}`).join(',')
      : entries.flat().map(String).join(',');
  }
  return String(value);
}

function addQuery(query: URLSearchParams, target: ArgumentTarget, value: unknown): void {
  const style = target.style ?? 'form';
  const explode = target.explode ?? style === 'form';
  if (Array.isArray(value)) {
    if (explode && style === 'form') {
      for (const item of value) query.append(target.name, String(item));
    } else {
      const separator = style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ',';
      query.append(target.name, value.map(String).join(separator));
    }
    return;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (style === 'deepObject') {
      for (const [key, item] of entries) query.append(`${target.name}[${key}]`, String(item));
    } else if (explode) {
      for (const [key, item] of entries) query.append(key, String(item));
    } else {
      query.append(target.name, entries.flat().map(String).join(','));
    }
    return;
  }
  query.append(target.name, String(value));
}

function encodeBody(
  payload: unknown,
  mediaType: string | undefined,
  headers: Headers,
): string | FormData {
  const type = mediaType ?? 'application/json';
  if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
    const entries = Object.entries((payload ?? {}) as Record<string, unknown>).filter(
      ([, value]) => value !== undefined,
    );
    const text = (value: unknown): string =>
      typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
    if (type === 'multipart/form-data') {
      const form = new FormData();
      for (const [key, value] of entries) form.append(key, text(value));
      return form; // fetch sets the multipart boundary
    }
    headers.set('content-type', type);
    return new URLSearchParams(
      entries.map(([key, value]): [string, string] => [key, text(value)]),
    ).toString();
  }
  if (type === 'text/plain') {
    headers.set('content-type', 'text/plain; charset=utf-8');
    return typeof payload === 'string' ? payload : JSON.stringify(payload);
  }
  headers.set('content-type', type);
  return JSON.stringify(payload);
}
