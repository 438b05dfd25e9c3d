import type { StepPostprocessorInput } from './step-postprocessors';
import type { Event } from '../events';
import { createCredentialRequestEvent } from './credential-request';

/**
 * Step postprocessor: when tools of the step asked for credentials
 * (`actions.requestedAuthConfigs`, from `ToolContext.requestCredential`), return the
 * `adk_request_credential` event. It is final (long-running), so the invocation ends there and
 * waits for the user's answer. Synchronous, and a single property read for steps that asked
 * nothing (almost all of them).
 */
export function requestCredentials(input: StepPostprocessorInput): Event[] | undefined {
  const requested = input.event.actions.requestedAuthConfigs;
  if (requested === undefined) return undefined;
  const { agent, ctx } = input;
  return [
    createCredentialRequestEvent({
      invocationId: ctx.invocationId,
      author: agent.name,
      branch: ctx.branch,
      requests: requested,
    }),
  ];
}
