/**
 * A failed API call, with what a person needs to act on it: the server's message (`detail`) and
 * stable `code` when it sent them, the HTTP status, and the request that failed.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    message: string,
    readonly request: string,
    readonly status: number | undefined,
    readonly code: string | undefined,
  ) {
    super(message);
  }

  /** The error as one readable line: `SESSION_NOT_FOUND: Session not found: x (404, GET /apps/...)`. */
  describe(): string {
    const where = [this.status, this.request].filter(Boolean).join(', ');
    return `${this.code ? `${this.code}: ` : ''}${this.message}${where ? ` (${where})` : ''}`;
  }
}

/**
 * The message for a request that never got an answer: the browser's "Failed to fetch" says
 * nothing, so name the server and the likely causes.
 */
export function unreachable(request: string, origin: string): ApiError {
  return new ApiError(
    `Cannot reach the ADK server at ${origin}: it may have stopped or restarted, or the network is down. Start it again and retry.`,
    request,
    undefined,
    'NETWORK_ERROR',
  );
}
