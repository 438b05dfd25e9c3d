import { ApiError, unreachable } from './api-error';

const TOKEN_KEY = 'adk-token';

/** The bearer token for servers started with one (asked once, kept in this browser). */
export function authHeaders(): Record<string, string> {
  const token = localStorage.getItem(TOKEN_KEY);
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** Read an error response into an {@link ApiError}, keeping the server's message and code. */
export async function errorOf(response: Response, request: string): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let detail = '';
  let code: string | undefined;
  try {
    const body = JSON.parse(text) as { detail?: unknown; code?: unknown };
    detail =
      typeof body.detail === 'string'
        ? body.detail
        : body.detail === undefined
          ? ''
          : JSON.stringify(body.detail);
    code = typeof body.code === 'string' ? body.code : undefined;
  } catch {
    detail = text.slice(0, 300);
  }
  return new ApiError(
    detail || `${response.status} ${response.statusText || 'error'}`,
    request,
    response.status,
    code,
  );
}

/** `fetch` that turns a network failure into a readable {@link ApiError}. */
export async function send(path: string, init: RequestInit = {}): Promise<Response> {
  const method = init.method ?? 'GET';
  const request = `${method} ${path}`;
  let response: Response;
  try {
    response = await fetch(path, {
      ...init,
      headers: { 'content-type': 'application/json', ...authHeaders(), ...init.headers },
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw unreachable(request, location.origin);
  }
  if (response.status === 401) {
    const token = prompt('This server needs an API token (ADK_API_TOKEN):');
    if (token) {
      localStorage.setItem(TOKEN_KEY, token);
      return send(path, init);
    }
  }
  if (!response.ok) throw await errorOf(response, request);
  return response;
}

/** Call a JSON route. */
export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await send(path, init);
  return (await response.json()) as T;
}

/** `{ method, body }` of a JSON request. */
export function json(method: string, body: unknown): RequestInit {
  return { method, body: JSON.stringify(body) };
}
