import type { Content, FunctionCall, FunctionResponse } from '../content';
import type { Event, ToolConfirmation } from '../events';
import { findAnsweredRequests } from '../events/answered-requests';
import { frameworkRequestEvent } from '../events/framework-request-event';

/**
 * Name of the framework function that asks the client for a human decision (the same wire format
 * as adk-python and adk-js, so their UIs understand it).
 *
 * - **Request**: an event from the agent holding a long-running call
 *   `adk_request_confirmation({ originalFunctionCall, toolConfirmation: { hint, confirmed: false } })`
 *   whose id is listed in `longRunningToolIds`; `actions.requestedToolConfirmations` is keyed by
 *   the original call id. The run ends there, and the original call stays unanswered.
 * - **Answer**: a later user message holding a `functionResponse` with the same id and name and
 *   the response `{ confirmed: boolean, payload?: unknown }` (a `{ response: '<json>' }` wrapper is
 *   accepted too). Any Runner instance on the same session store resumes it: the original call is
 *   executed (with `toolContext.toolConfirmation` set) or answered with a rejection.
 *
 * Models never see these calls and responses (see `buildContents`).
 */
export const REQUEST_CONFIRMATION_FUNCTION_NAME = 'adk_request_confirmation';

/** Prefix of the id of a confirmation request; the rest is the original call id. */
const CONFIRMATION_ID_PREFIX = 'confirm-';

/** Id of the confirmation request for the call `originalCallId`. */
export function confirmationCallId(originalCallId: string): string {
  return CONFIRMATION_ID_PREFIX + originalCallId;
}

/** One call awaiting a human decision. */
export interface ConfirmationRequest {
  /** The call that must be approved. */
  call: FunctionCall & { id: string };
  hint?: string;
  payload?: unknown;
  /** Deadline (ms since the epoch): unanswered by then, the call is denied (`CONFIRMATION_EXPIRED`). */
  expiresAt?: number;
}

/** The arguments of an `adk_request_confirmation` call. */
export interface ConfirmationRequestArgs {
  originalFunctionCall: FunctionCall;
  toolConfirmation: ToolConfirmation;
  /**
   * The deadline of the request, an ISO 8601 time (absent: no deadline). Kept beside
   * `toolConfirmation`, whose shape is the official ADKs' own, so their clients still read it.
   */
  expiresAt?: string;
}

/** The deadline (ms since the epoch) of a request with these arguments, if it has a valid one. */
export function confirmationDeadline(
  args: Record<string, unknown> | undefined,
): number | undefined {
  const value = args?.expiresAt;
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

/**
 * The event that pauses a run until a human decides on `requests` (one long-running
 * `adk_request_confirmation` call per request).
 */
export function createConfirmationRequestEvent(init: {
  invocationId: string;
  author: string;
  branch?: string;
  requests: readonly ConfirmationRequest[];
}): Event {
  const requested: Record<string, ToolConfirmation> = {};
  const calls = init.requests.map(({ call, hint, payload, expiresAt }) => {
    const toolConfirmation: ToolConfirmation = { confirmed: false };
    if (hint !== undefined) toolConfirmation.hint = hint;
    if (payload !== undefined) toolConfirmation.payload = payload;
    requested[call.id] = { ...toolConfirmation };
    const args: ConfirmationRequestArgs = {
      originalFunctionCall: { id: call.id, name: call.name, args: { ...call.args } },
      toolConfirmation,
    };
    if (expiresAt !== undefined) args.expiresAt = new Date(expiresAt).toISOString();
    return {
      id: confirmationCallId(call.id),
      name: REQUEST_CONFIRMATION_FUNCTION_NAME,
      args: args as unknown as Record<string, unknown>,
    };
  });
  return frameworkRequestEvent({
    invocationId: init.invocationId,
    author: init.author,
    branch: init.branch,
    calls,
    actions: { requestedToolConfirmations: requested },
  });
}

/**
 * A user message approving or rejecting a confirmation request: what a client sends back.
 *
 * @example
 * ```ts
 * runner.run({ userId, sessionId, newMessage: confirmationResponse(requestCallId, true) });
 * ```
 */
export function confirmationResponse(
  requestCallId: string,
  confirmed: boolean,
  payload?: unknown,
): Content {
  const response: Record<string, unknown> = { confirmed };
  if (payload !== undefined) response.payload = payload;
  return {
    role: 'user',
    parts: [
      {
        functionResponse: { id: requestCallId, name: REQUEST_CONFIRMATION_FUNCTION_NAME, response },
      },
    ],
  };
}

/**
 * The decision carried by an answer, or `undefined` when it is malformed (a malformed answer never
 * approves anything).
 */
export function parseConfirmationResponse(
  response: FunctionResponse,
): ToolConfirmation | undefined {
  let body: unknown = response.response;
  const wrapped = (body as { response?: unknown } | undefined)?.response;
  if (typeof wrapped === 'string' && !('confirmed' in (body as object))) {
    try {
      body = JSON.parse(wrapped);
    } catch {
      return undefined;
    }
  }
  if (body === null || typeof body !== 'object') return undefined;
  const { confirmed, payload } = body as { confirmed?: unknown; payload?: unknown };
  if (typeof confirmed !== 'boolean') return undefined;
  return payload === undefined ? { confirmed } : { confirmed, payload };
}

/** A confirmation request found in a session, with the answer the latest user message gives it. */
export interface AnsweredConfirmation {
  /** The event holding the request (its author is the agent that made the original call). */
  requestEvent: Event;
  /** The original call to execute or reject. */
  call: FunctionCall & { id: string };
  /** The decision, or `undefined` when the answer was malformed (treated as a rejection). */
  confirmation: ToolConfirmation | undefined;
  /**
   * The request's deadline (ms since the epoch) when it had one and it passed before the answer
   * (or, for a request nobody answered, before the agent ran again): the call is denied with
   * `CONFIRMATION_EXPIRED`, whatever the answer says.
   */
  expiredAt?: number;
  /**
   * Set on a request nobody answered that expired: the id of its `adk_request_confirmation` call,
   * which the flow answers itself when it denies the call.
   */
  requestCallId?: string;
}

/**
 * The confirmation requests that `answer` (the user event of the current invocation) answers,
 * looked up in `events` (which may include `answer` itself). A request already answered by another
 * event is not answered again. Unknown ids are ignored.
 */
export function findAnsweredConfirmations(
  events: readonly Event[],
  answer: Event,
): AnsweredConfirmation[] {
  const found: AnsweredConfirmation[] = [];
  for (const { requestEvent, args, response } of findAnsweredRequests(
    events,
    answer,
    REQUEST_CONFIRMATION_FUNCTION_NAME,
  )) {
    const original = (args as unknown as Partial<ConfirmationRequestArgs>).originalFunctionCall;
    if (!original?.id) continue;
    const entry: AnsweredConfirmation = {
      requestEvent,
      call: { id: original.id, name: original.name, args: { ...original.args } },
      confirmation: parseConfirmationResponse(response),
    };
    const deadline = confirmationDeadline(args);
    if (deadline !== undefined && answer.timestamp > deadline) entry.expiredAt = deadline;
    found.push(entry);
  }
  return found;
}

/** The function response a model receives for a call the human rejected. */
export function rejectedToolResponse(
  confirmation: ToolConfirmation | undefined,
): Record<string, unknown> {
  if (!confirmation)
    return { error: 'The tool call was not executed: the confirmation answer was malformed.' };
  const response: Record<string, unknown> = { error: 'The user rejected this tool call.' };
  if (confirmation.payload !== undefined) response.payload = confirmation.payload;
  return response;
}
