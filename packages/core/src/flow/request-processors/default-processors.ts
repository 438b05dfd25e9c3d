import type { LlmRequest } from '../../models';
import { configProcessor } from './config-processor';
import { buildDefaultRequest } from './default-request';
import { contentsProcessor } from './contents-processor';
import { identityProcessor } from './identity-processor';
import { instructionsProcessor } from './instructions-processor';
import { outputSchemaProcessor } from './output-schema-processor';
import { toolsProcessor } from './tools-processor';
import { transferProcessor } from '../transfer-to-agent-flow';
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

/** The built-in processors in their default order, and their `process` functions, as shipped. */
const BUILT_IN = [...defaultRequestProcessors];
const BUILT_IN_PROCESS = BUILT_IN.map((processor) => processor.process);

/**
 * Whether `processors` are the built-in ones in the default order, unchanged: then
 * `buildDefaultRequest` builds what they would. Checked on every call, because the default list and
 * the processor objects can be changed at run time.
 */
function isDefaultList(processors: readonly RequestProcessor[]): boolean {
  if (processors.length !== BUILT_IN.length) return false;
  for (let index = 0; index < processors.length; index++) {
    const processor = processors[index] as RequestProcessor;
    if (processor !== BUILT_IN[index] || processor.process !== BUILT_IN_PROCESS[index])
      return false;
  }
  return true;
}

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
  // The default processors (most agents) build in one pass when none of them has to wait.
  if (isDefaultList(processors)) {
    const request = buildDefaultRequest(model, input);
    if (request !== undefined) return request;
  }
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
