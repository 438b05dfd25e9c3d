import type { InvocationContext } from '../invocation/invocation-context';
import type { FunctionCall, Part } from '../content';
import { AdkError } from '../errors/adk-error';
import { describeCause } from '../errors/describe-cause';
import {
  createEvent,
  createEventActions,
  newEventId,
  type Event,
  type EventActions,
} from '../events';
import { prefixedRandomUuid } from '../events/random-uuid';
import type { LlmResponse } from '../models';
import type { Tool } from '../tools/tool';

/**
 * Members of an `LlmResponse` copied onto its event (besides `content`), in this order. Exported
 * for the tests, which check that `modelResponseEvent` copies exactly these.
 */
export const RESPONSE_KEYS = [
  'partial',
  'turnComplete',
  'finishReason',
  'usageMetadata',
  'errorCode',
  'errorMessage',
  'interrupted',
  'modelVersion',
  'groundingMetadata',
  'citationMetadata',
  'customMetadata',
  'inputTranscription',
  'outputTranscription',
  'liveSessionResumptionUpdate',
  'goAway',
  'cacheMetadata',
] as const satisfies readonly (keyof LlmResponse)[];

/** An error event authored by `author`: no content, `errorCode` and `errorMessage` set. */
export function errorEvent(
  ctx: InvocationContext,
  author: string,
  error: unknown,
  fallbackCode = 'UNKNOWN_ERROR',
): Event {
  return createEvent({
    invocationId: ctx.invocationId,
    author,
    branch: ctx.branch,
    errorCode: AdkError.isInstance(error) ? error.code : fallbackCode,
    errorMessage: describeCause(error),
  });
}

/**
 * The event for a model response. Function calls without an id get one (`adk-<uuid>`); calls to
 * long-running tools are listed in `longRunningToolIds`; a content without parts is dropped. The
 * response object is not modified.
 */
export function modelResponseEvent(
  ctx: InvocationContext,
  author: string,
  response: LlmResponse,
  actions: EventActions | undefined,
  tools: ReadonlyMap<string, Tool>,
): Event {
  // Never store `{ parts: [] }` (providers reject it when it is sent back).
  let content = response.content?.parts.length ? response.content : undefined;
  let longRunningToolIds: string[] | undefined;
  if (content && !response.partial) {
    let parts: Part[] | undefined;
    const original = content.parts;
    for (let index = 0; index < original.length; index++) {
      const part = original[index] as Part;
      const call = part.functionCall;
      if (!call) continue;
      let id = call.id;
      if (!id) {
        id = prefixedRandomUuid('adk-');
        parts ??= [...original];
        parts[index] = { ...part, functionCall: { ...call, id } satisfies FunctionCall };
      }
      if (tools.get(call.name)?.isLongRunning) (longRunningToolIds ??= []).push(id);
    }
    if (parts) content = { ...content, parts };
  }
  const event: Event = {
    id: newEventId(),
    invocationId: ctx.invocationId,
    author,
    timestamp: Date.now(),
    actions: createEventActions(actions),
  };
  if (ctx.branch !== undefined) event.branch = ctx.branch;
  if (content) event.content = content.role ? content : { ...content, role: 'model' };
  // The response's other members (RESPONSE_KEYS, in that order), without `undefined` ones (an
  // event equals its JSON form). Written out: a loop over the keys makes every read and write a
  // keyed access, slow until the JIT has optimized this function.
  if (response.partial !== undefined) event.partial = response.partial;
  if (response.turnComplete !== undefined) event.turnComplete = response.turnComplete;
  if (response.finishReason !== undefined) event.finishReason = response.finishReason;
  if (response.usageMetadata !== undefined) event.usageMetadata = response.usageMetadata;
  if (response.errorCode !== undefined) event.errorCode = response.errorCode;
  if (response.errorMessage !== undefined) event.errorMessage = response.errorMessage;
  if (response.interrupted !== undefined) event.interrupted = response.interrupted;
  if (response.modelVersion !== undefined) event.modelVersion = response.modelVersion;
  if (response.groundingMetadata !== undefined)
    event.groundingMetadata = response.groundingMetadata;
  if (response.citationMetadata !== undefined) event.citationMetadata = response.citationMetadata;
  if (response.customMetadata !== undefined) event.customMetadata = response.customMetadata;
  if (response.inputTranscription !== undefined) {
    event.inputTranscription = response.inputTranscription;
  }
  if (response.outputTranscription !== undefined) {
    event.outputTranscription = response.outputTranscription;
  }
  if (response.liveSessionResumptionUpdate !== undefined) {
    event.liveSessionResumptionUpdate = response.liveSessionResumptionUpdate;
  }
  if (response.goAway !== undefined) event.goAway = response.goAway;
  if (response.cacheMetadata !== undefined) event.cacheMetadata = response.cacheMetadata;
  if (longRunningToolIds) event.longRunningToolIds = longRunningToolIds;
  return event;
}
