import type { Content, FunctionCall, FunctionResponse } from '../content';
import type { Event } from '../events';
import { findAnsweredRequests } from '../events/answered-requests';
import { frameworkRequestEvent } from '../events/framework-request-event';
import { parseAuthCredential, type AuthCredential } from '../auth/auth-credential';
import { credentialKeyOf, type AuthConfig } from '../auth/auth-config';

/**
 * Name of the framework function that asks the client for a credential (the wire format of
 * adk-python and adk-js, which the ADK web UI understands).
 *
 * - **Request**: an event from the agent holding a long-running call
 *   `adk_request_credential({ functionCallId, authConfig })` per tool call that asked, whose id is
 *   listed in `longRunningToolIds`. `authConfig` is the tool's config without secrets, with its
 *   `credentialKey` and, for OAuth2, the authorization URL to open
 *   (`exchangedAuthCredential.oauth2.authUri`). The run ends there.
 * - **Answer**: a later user message holding a `functionResponse` with the same id and name whose
 *   response is the `authConfig` with `exchangedAuthCredential` filled in (a `{ response: '<json>' }`
 *   wrapper is accepted too). Any Runner on the same session store resumes it: the credential is
 *   saved in the `CredentialService` and the original call runs again.
 *
 * Models never see these calls and responses (see `buildContents`).
 */
export const REQUEST_CREDENTIAL_FUNCTION_NAME = 'adk_request_credential';

/** Prefix of the id of a credential request; the rest is the original call id. */
const CREDENTIAL_ID_PREFIX = 'auth-';

/** Id of the credential request for the call `originalCallId`. */
export function credentialRequestCallId(originalCallId: string): string {
  return CREDENTIAL_ID_PREFIX + originalCallId;
}

/** The arguments of an `adk_request_credential` call. */
export interface CredentialRequestArgs {
  /** Id of the tool call that needs the credential. */
  functionCallId: string;
  authConfig: AuthConfig;
}

/**
 * The event that pauses a run until the user provides the credentials in `requests` (original
 * call id to the request's `authConfig`, already stripped of secrets).
 */
export function createCredentialRequestEvent(init: {
  invocationId: string;
  author: string;
  branch?: string;
  requests: Readonly<Record<string, AuthConfig>>;
}): Event {
  const calls = Object.entries(init.requests).map(([functionCallId, authConfig]) => {
    const args: CredentialRequestArgs = { functionCallId, authConfig: structuredClone(authConfig) };
    return {
      id: credentialRequestCallId(functionCallId),
      name: REQUEST_CREDENTIAL_FUNCTION_NAME,
      args: args as unknown as Record<string, unknown>,
    };
  });
  return frameworkRequestEvent({
    invocationId: init.invocationId,
    author: init.author,
    branch: init.branch,
    calls,
  });
}

/**
 * A user message answering a credential request with `authConfig` (the request's config with
 * `exchangedAuthCredential` filled in): what a client sends back.
 *
 * @example
 * ```ts
 * const { id, args } = requestCall; // the adk_request_credential call of the last event
 * const { authConfig } = args as unknown as CredentialRequestArgs;
 * const answer = credentialResponse(id, {
 *   ...authConfig,
 *   exchangedAuthCredential: { authType: 'http', http: { scheme: 'bearer', credentials: { token } } },
 * });
 * runner.run({ userId, sessionId, newMessage: answer });
 * ```
 */
export function credentialResponse(requestCallId: string, authConfig: AuthConfig): Content {
  return {
    role: 'user',
    parts: [
      {
        functionResponse: {
          id: requestCallId,
          name: REQUEST_CREDENTIAL_FUNCTION_NAME,
          response: structuredClone(authConfig) as unknown as Record<string, unknown>,
        },
      },
    ],
  };
}

/**
 * The credential carried by an answer (its `exchangedAuthCredential`), or `undefined` when it
 * is missing or unusable (see `parseAuthCredential`).
 */
export function parseCredentialResponse(response: FunctionResponse): AuthCredential | undefined {
  let body: unknown = response.response;
  const wrapped = (body as { response?: unknown } | undefined)?.response;
  if (typeof wrapped === 'string') {
    try {
      body = JSON.parse(wrapped);
    } catch {
      return undefined;
    }
  }
  return parseAuthCredential(
    (body as { exchangedAuthCredential?: unknown } | null | undefined)?.exchangedAuthCredential,
  );
}

/** A credential request found in a session, with the answer the latest user message gives it. */
export interface AnsweredCredentialRequest {
  /** The event holding the request (its author is the agent that made the original call). */
  requestEvent: Event;
  /** The original call, to run again. */
  call: FunctionCall & { id: string };
  /** Where the credential is saved (the key of the request, never one the client chose). */
  credentialKey: string;
  /** The credential, or `undefined` when the answer was missing or unusable. */
  credential: AuthCredential | undefined;
  /** Why the answer was refused, when `credential` is `undefined`. */
  problem?: string;
}

/**
 * False when the request carried an OAuth2 `state` and the answer's callback URL
 * (`authResponseUri`) carries another one, or none: the callback belongs to another authorization
 * (a forged or mixed-up answer). Answers without a callback URL are not checked.
 */
function stateMatches(request: AuthConfig, answer: AuthCredential): boolean {
  const expected = request.exchangedAuthCredential?.oauth2?.state;
  const callback = answer.oauth2?.authResponseUri;
  if (expected === undefined || callback === undefined) return true;
  try {
    return new URL(callback).searchParams.get('state') === expected;
  } catch {
    return false;
  }
}

/**
 * The credential requests that `answer` (the user event of the current invocation) answers,
 * looked up in `events`. A request already answered by another event is not answered again;
 * unknown ids, and requests whose original call is not in `events`, are ignored.
 */
export function findAnsweredCredentialRequests(
  events: readonly Event[],
  answer: Event,
): AnsweredCredentialRequest[] {
  const found: AnsweredCredentialRequest[] = [];
  for (const { requestEvent, args, response } of findAnsweredRequests(
    events,
    answer,
    REQUEST_CREDENTIAL_FUNCTION_NAME,
  )) {
    const { functionCallId, authConfig } = args as Partial<CredentialRequestArgs>;
    if (typeof functionCallId !== 'string' || !authConfig?.authScheme) continue;
    const call = findCall(events, functionCallId);
    if (!call) continue;
    const entry: AnsweredCredentialRequest = {
      requestEvent,
      call: { id: functionCallId, name: call.name, args: { ...call.args } },
      credentialKey: credentialKeyOf(authConfig),
      credential: parseCredentialResponse(response),
    };
    if (!entry.credential) {
      entry.problem = 'it holds no usable credential';
    } else if (!stateMatches(authConfig, entry.credential)) {
      entry.credential = undefined;
      entry.problem = 'the OAuth2 callback URL does not carry the state of the request';
    }
    found.push(entry);
  }
  return found;
}

/** The latest call with id `id` in `events`. */
export function findCall(events: readonly Event[], id: string): FunctionCall | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    for (const part of events[index]?.content?.parts ?? []) {
      if (part.functionCall?.id === id) return part.functionCall;
    }
  }
  return undefined;
}
