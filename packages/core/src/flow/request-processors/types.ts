import type { InvocationContext } from '../../agents/invocation-context';
import type { LlmAgent } from '../../agents/llm-agent';
import type { ReadonlyContext } from '../../context';
import type { LlmRequest } from '../../models';
import type { Tool } from '../../tools/tool';

/** Everything a request processor may read. Processors never change it. */
export interface RequestProcessorInput {
  /** The agent the request is built for. */
  readonly agent: LlmAgent;
  /** The invocation (session, run config, services). */
  readonly invocationContext: InvocationContext;
  /** Read-only view for instruction providers. */
  readonly context: ReadonlyContext;
  /** The tools available in this step (static tools plus resolved toolsets), in order. */
  readonly tools: readonly Tool[];
}

/**
 * One stage of request building. `process` is pure: it returns a new request derived from the one
 * it is given and from `input`, without changing either (tools' `processRequest` hooks receive a
 * copy). The flow runs an agent's processors in order, starting from
 * `{ model, contents: [], config: {} }`.
 *
 * To extend request building (agent transfer, context compression, policies), write a processor
 * and insert it in the list: `new LlmAgent({ requestProcessors: [...defaultRequestProcessors, mine] })`,
 * or add it to {@link defaultRequestProcessors} for every agent.
 */
export interface RequestProcessor {
  /** Short stable name, e.g. `instructions` (used to place other processors before or after). */
  readonly name: string;
  process(request: LlmRequest, input: RequestProcessorInput): LlmRequest | Promise<LlmRequest>;
}

/** `request` with `text` appended to its system instruction (blocks separated by a blank line). */
export function appendInstruction(request: LlmRequest, text: string): LlmRequest {
  const trimmed = text.trim();
  if (trimmed === '') return request;
  const systemInstruction = request.systemInstruction
    ? `${request.systemInstruction}\n\n${trimmed}`
    : trimmed;
  return { ...request, systemInstruction };
}

/** `request` with `text` put before its system instruction. */
export function prependInstruction(request: LlmRequest, text: string): LlmRequest {
  const trimmed = text.trim();
  if (trimmed === '') return request;
  const systemInstruction = request.systemInstruction
    ? `${trimmed}\n\n${request.systemInstruction}`
    : trimmed;
  return { ...request, systemInstruction };
}
