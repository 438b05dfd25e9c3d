import {
  authConfigForRequest,
  createCredentialRequestEvent,
  credentialKeyOf,
  credentialRequestCallId,
  InvocationToolContext,
  parseCredentialResponse,
  REQUEST_CREDENTIAL_FUNCTION_NAME,
  type AuthConfig,
  type AuthCredential,
  type ResumedCredential,
} from '@adk/core';

import type { ExecutionSettings } from './execution-settings';
import type { NodeContextImpl } from './node-context-impl';
import type { Execution } from './outcome';

/**
 * @internal The credential of a node's `authConfig`, through core's credential flow: the answer
 * to the node's `adk_request_credential` call when this execution resumes with it (saved in the
 * `CredentialService`), else the stored one (refreshed or exchanged as for a tool). Without one,
 * the request is emitted and the node waits for its answer (`undefined` is returned).
 */
export async function nodeCredential(
  authConfig: AuthConfig,
  exec: Execution,
  settings: ExecutionSettings,
  nodeCtx: NodeContextImpl,
): Promise<AuthCredential | undefined> {
  const { ctx } = settings;
  const origin = `${settings.runId}/${exec.path}`;
  const requestId = credentialRequestCallId(origin);
  const credentialKey = credentialKeyOf(authConfig);
  let resumed: ResumedCredential | undefined;
  const answer = settings.resumeInputs.get(requestId);
  if (answer !== undefined) {
    const credential = parseCredentialResponse({
      id: requestId,
      name: REQUEST_CREDENTIAL_FUNCTION_NAME,
      response: answer as Record<string, unknown>,
    });
    if (credential) {
      await ctx.credentialService?.saveCredential({
        appName: ctx.appName,
        userId: ctx.userId,
        credentialKey,
        credential,
      });
      resumed = { credentialKey, credential };
    }
  }
  const lookup = new InvocationToolContext(ctx, nodeCtx.actions, origin, undefined, resumed);
  const credential = await lookup.getCredential(authConfig);
  if (credential) return credential;
  await settings.host.emit(
    createCredentialRequestEvent({
      invocationId: ctx.invocationId,
      author: settings.workflowName,
      branch: ctx.branch,
      requests: { [origin]: authConfigForRequest(authConfig) },
    }),
  );
  nodeCtx.waitFor([requestId]);
  return undefined;
}
