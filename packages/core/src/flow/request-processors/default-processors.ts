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
  let request: LlmRequest = { model, contents: [], config: {} };
  for (const processor of processors) {
    const next = processor.process(request, input);
    request = next instanceof Promise ? await next : next;
  }
  return request;
}
