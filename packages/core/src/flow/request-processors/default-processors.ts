import type { LlmRequest } from '../../models';
import { configProcessor } from './config-processor';
import { contentsProcessor } from './contents-processor';
import { identityProcessor } from './identity-processor';
import { instructionsProcessor } from './instructions-processor';
import { outputSchemaProcessor } from './output-schema-processor';
import { toolsProcessor } from './tools-processor';
import { transferProcessor } from '../../tools/transfer-to-agent-flow';
import type { RequestProcessor, RequestProcessorInput } from './types';

/**
 * The processors every `LlmAgent` uses unless given its own list, in order: config, identity,
 * instructions, contents, tools, output schema, transfer (the targets of `transfer_to_agent`).
 */
export const defaultRequestProcessors: readonly RequestProcessor[] = [
  configProcessor,
  identityProcessor,
  instructionsProcessor,
  contentsProcessor,
  toolsProcessor,
  outputSchemaProcessor,
  transferProcessor,
];

/** Run `processors` in order from an empty request for `model`. */
export async function buildRequest(
  model: string,
  processors: readonly RequestProcessor[],
  input: RequestProcessorInput,
): Promise<LlmRequest> {
  return buildRequestNow(model, processors, input);
}

/**
 * {@link buildRequest}, synchronously while every processor answers synchronously (the usual
 * case): the flow awaits only when a processor returned a promise. Internal to the flow.
 */
export function buildRequestNow(
  model: string,
  processors: readonly RequestProcessor[],
  input: RequestProcessorInput,
): LlmRequest | Promise<LlmRequest> {
  let request: LlmRequest = { model, contents: [], config: {} };
  for (let index = 0; index < processors.length; index++) {
    const next = (processors[index] as RequestProcessor).process(request, input);
    if (next instanceof Promise) return finishRequest(next, processors, index + 1, input);
    request = next;
  }
  return request;
}

async function finishRequest(
  pending: Promise<LlmRequest>,
  processors: readonly RequestProcessor[],
  from: number,
  input: RequestProcessorInput,
): Promise<LlmRequest> {
  let request = await pending;
  for (let index = from; index < processors.length; index++) {
    const next = (processors[index] as RequestProcessor).process(request, input);
    request = next instanceof Promise ? await next : next;
  }
  return request;
}
