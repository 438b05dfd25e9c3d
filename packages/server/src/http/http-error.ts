import {
  AdkError,
  InvalidArgumentError,
  InvocationNotFoundError,
  SessionExistsError,
  SessionNotFoundError,
  StaleSessionError,
} from '@adk/core';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HTTPException } from 'hono/http-exception';

/** JSON body of every error response, as the official server (`{"detail": "..."}`). */
export interface ErrorBody {
  detail: string;
  /** Stable machine-readable code when the error is an ADK error. */
  code?: string;
}

/** An HTTP error with a JSON `{ detail }` body; throw it from a route. */
export function httpError(
  status: ContentfulStatusCode,
  detail: string,
  code?: string,
): HTTPException {
  const body: ErrorBody = code === undefined ? { detail } : { detail, code };
  return new HTTPException(status, {
    message: detail,
    res: new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    }),
  });
}

/** The HTTP status an error maps to: ADK errors by kind, anything else is a 500. */
export function statusOf(error: unknown): ContentfulStatusCode {
  if (SessionNotFoundError.isInstance(error)) return 404;
  if (InvocationNotFoundError.isInstance(error)) return 404;
  if (SessionExistsError.isInstance(error)) return 409;
  // Another run wrote to the session meanwhile: retrying the request is the fix.
  if (StaleSessionError.isInstance(error)) return 409;
  if (InvalidArgumentError.isInstance(error)) return 400;
  // A shutting-down instance: the load balancer's retry on another instance is the fix.
  if (AdkError.isInstance(error) && error.code === 'SERVER_SHUTTING_DOWN') return 503;
  // Every other "invalid input" error of the ADK packages (`INVALID_EVENT`, `INVALID_ARTIFACT_NAME`...).
  if (AdkError.isInstance(error) && error.code.startsWith('INVALID_')) return 400;
  return 500;
}

/** Turn any thrown value into the response the client sees. */
export function errorResponse(error: unknown): Response {
  if (error instanceof HTTPException) return error.getResponse();
  const status = statusOf(error);
  const detail = error instanceof Error ? error.message : String(error);
  const code = AdkError.isInstance(error) ? error.code : undefined;
  return httpError(status, detail, code).getResponse();
}
