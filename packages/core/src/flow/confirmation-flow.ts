import type { InvocationContext } from '../invocation/invocation-context';
import type { FlowAgent } from './flow-agent';
import type { FunctionCall, Part } from '../content';
import { ConfirmationExpiredError } from '../errors/confirmation-expired-error';
import { confirmationTimeoutOf } from '../events/confirmation-timeout';
import { findExpiredConfirmations } from '../policies/confirmation-expiry';
import { InvocationReadonlyContext } from '../context/invocation-contexts';
import type { Event, ToolConfirmation } from '../events';
import { executeFunctionCalls } from './execute-tools';
import { resolveTools } from './resolve-tools';
import type { StepPostprocessorInput } from './step-postprocessors';
import { withTransferTool } from './transfer-to-agent-flow';
import {
  findAnsweredCredentialRequests,
  REQUEST_CREDENTIAL_FUNCTION_NAME,
  type AnsweredCredentialRequest,
} from './credential-request';
import type { ResumedCredential } from '../context/invocation-contexts';
import { InvalidCredentialAnswerError } from '../errors/invalid-credential-answer-error';
import { answersFunction } from '../events/answered-requests';
import {
  createConfirmationRequestEvent,
  findAnsweredConfirmations,
  REQUEST_CONFIRMATION_FUNCTION_NAME,
  type AnsweredConfirmation,
  type ConfirmationRequest,
} from '../policies/confirmation';

function findCall(events: readonly Event[], id: string): FunctionCall | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const parts = events[index]?.content?.parts;
    if (parts === undefined) continue;
    for (let at = 0; at < parts.length; at++) {
      const call = parts[at]!.functionCall;
      if (call?.id === id) return call;
    }
  }
  return undefined;
}

/**
 * Step postprocessor: when tools of the step asked for a human confirmation
 * (`actions.requestedToolConfirmations`, from a policy or `FunctionTool({ requireConfirmation })`),
 * return the `adk_request_confirmation` event. It is final (long-running), so the invocation ends
 * there and waits for the user's answer. Synchronous: most steps request no confirmation.
 */
export function requestConfirmations(input: StepPostprocessorInput): Event[] | undefined {
  const { agent, ctx, event } = input;
  const requested = event.actions.requestedToolConfirmations;
  let requests: ConfirmationRequest[] | undefined;
  for (const id in requested) {
    const confirmation = requested[id]!;
    const call = findCall(ctx.session.events, id);
    if (!call) continue;
    const request: ConfirmationRequest = { call: { ...call, id } };
    if (confirmation.hint !== undefined) request.hint = confirmation.hint;
    if (confirmation.payload !== undefined) request.payload = confirmation.payload;
    const timeoutMs = confirmationTimeoutOf(confirmation);
    if (timeoutMs !== undefined) request.expiresAt = Date.now() + timeoutMs;
    (requests ??= []).push(request);
  }
  if (!requests) return undefined;
  return [
    createConfirmationRequestEvent({
      invocationId: ctx.invocationId,
      author: agent.name,
      branch: ctx.branch,
      requests,
    }),
  ];
}

/**
 * The user event that started the invocation of `ctx`, if it is stored and `agentName` has not
 * spoken since: an agent resumes its calls once per answer, not on its next run in the same
 * invocation (a loop's next pass).
 */
function currentUserEvent(ctx: InvocationContext, agentName: string): Event | undefined {
  const events = ctx.session.events;
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    if (event.invocationId !== ctx.invocationId) break;
    if (event.author === 'user') return event;
    if (event.author === agentName) break;
  }
  return undefined;
}

/** A paused call the user's message answers: a confirmation, or a credential request. */
export type AnsweredPause = AnsweredConfirmation | AnsweredCredentialRequest;

/**
 * Checked before an agent's first step: the confirmation and credential requests this agent made
 * that the user's message answers, and its confirmation requests nobody answered whose deadline
 * passed before that message (none for most turns, found without allocating). Works from any
 * Runner instance: the requests and their deadlines are read from the session's events.
 */
export function confirmationsToResume(agent: FlowAgent, ctx: InvocationContext): AnsweredPause[] {
  const answer = currentUserEvent(ctx, agent.name);
  if (!answer) return NOTHING_TO_RESUME;
  const events = ctx.session.events;
  const expired = findExpiredConfirmations(events, agent.name, answer.timestamp);
  const confirming = answersFunction(answer, REQUEST_CONFIRMATION_FUNCTION_NAME);
  const authorizing = answersFunction(answer, REQUEST_CREDENTIAL_FUNCTION_NAME);
  if (!confirming && !authorizing) return expired.length > 0 ? expired : NOTHING_TO_RESUME;
  const found: AnsweredPause[] = [
    ...(confirming ? findAnsweredConfirmations(events, answer) : []),
    ...(authorizing ? findAnsweredCredentialRequests(events, answer) : []),
  ];
  return [...found.filter((entry) => entry.requestEvent.author === agent.name), ...expired];
}

const NOTHING_TO_RESUME: AnsweredPause[] = [];

/**
 * Resume the calls of {@link confirmationsToResume}, in one function-response event: execute the
 * approved ones (with `toolContext.toolConfirmation` set) and answer the rejected ones (a
 * malformed answer counts as a rejection); save the credentials the user gave in the
 * `CredentialService` and run their calls again (`toolContext.getCredential` returns them), or
 * answer the call with `INVALID_CREDENTIAL_ANSWER` when the answer holds no usable credential.
 * The agent's loop then continues and the model sees the results.
 */
export async function* resumeConfirmedCalls(
  agent: FlowAgent,
  ctx: InvocationContext,
  answered: readonly AnsweredPause[],
): AsyncGenerator<Event, void> {
  const resolved = withTransferTool(
    agent,
    await resolveTools(agent, new InvocationReadonlyContext(ctx)),
  );
  let confirmations: Record<string, ToolConfirmation> | undefined;
  let credentials: Record<string, ResumedCredential | { error: Error }> | undefined;
  let closed: Part[] | undefined;
  for (const entry of answered) {
    if (!('credentialKey' in entry)) {
      const { call, expiredAt, requestCallId } = entry;
      if (expiredAt === undefined) {
        (confirmations ??= {})[call.id] = entry.confirmation ?? { confirmed: false };
        continue;
      }
      // Expired: denied whatever the answer says, and a request nobody answered is closed.
      const error = new ConfirmationExpiredError({
        toolName: call.name,
        expiresAt: new Date(expiredAt),
      });
      (credentials ??= {})[call.id] = { error };
      if (requestCallId !== undefined) (closed ??= []).push(expiryAnswer(requestCallId));
      continue;
    }
    const { credentialKey, credential, call, problem } = entry;
    credentials ??= {};
    if (!credential) {
      credentials[call.id] = {
        error: new InvalidCredentialAnswerError({
          toolName: call.name,
          credentialKey,
          ...(problem === undefined ? {} : { problem }),
        }),
      };
      continue;
    }
    await ctx.credentialService?.saveCredential({
      appName: ctx.appName,
      userId: ctx.userId,
      credentialKey,
      credential,
    });
    credentials[call.id] = { credentialKey, credential };
  }
  const event = await executeFunctionCalls({
    agent,
    ctx,
    calls: answered.map((entry) => entry.call),
    tools: resolved.byName,
    parentSpanId: undefined,
    ...(confirmations ? { confirmations } : {}),
    ...(credentials ? { credentials } : {}),
  });
  if (event && closed) event.content?.parts.push(...closed);
  if (event) yield event;
}

/**
 * The framework's answer closing an expired request nobody answered: a rejection whose payload
 * says why, in the shape clients already read (`{ confirmed, payload }`).
 */
function expiryAnswer(requestCallId: string): Part {
  return {
    functionResponse: {
      id: requestCallId,
      name: REQUEST_CONFIRMATION_FUNCTION_NAME,
      response: { confirmed: false, payload: { expired: true } },
    },
  };
}
