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

const SEPARATOR = '\n\n';

/**
 * `request` with a static section `text` added to its system instruction (sections separated by a
 * blank line): at the end of its static part ({@link LlmRequest.staticInstruction}), before any
 * section that depends on the session, so that the static part stays a stable prefix. Without a
 * known static part (a processor set `systemInstruction` itself), `text` goes at the end.
 */
export function appendInstruction(request: LlmRequest, text: string): LlmRequest {
  const trimmed = text.trim();
  if (trimmed === '') return request;
  const current = request.systemInstruction;
  if (!current) return { ...request, systemInstruction: trimmed, staticInstruction: trimmed };
  const known = request.staticInstruction;
  if (known === undefined || !current.startsWith(known)) {
    return { ...request, systemInstruction: `${current}${SEPARATOR}${trimmed}` };
  }
  const staticInstruction = known === '' ? trimmed : `${known}${SEPARATOR}${trimmed}`;
  const rest = current.slice(known.length);
  const dynamic = known === '' ? `${SEPARATOR}${rest}` : rest;
  return { ...request, systemInstruction: `${staticInstruction}${dynamic}`, staticInstruction };
}

/**
 * `request` with a section `text` that may change between requests (a templated instruction, an
 * instruction function's result) appended after everything else: it never becomes part of the
 * static prefix.
 */
export function appendDynamicInstruction(request: LlmRequest, text: string): LlmRequest {
  const trimmed = text.trim();
  if (trimmed === '') return request;
  const current = request.systemInstruction;
  if (!current) return { ...request, systemInstruction: trimmed, staticInstruction: '' };
  return { ...request, systemInstruction: `${current}${SEPARATOR}${trimmed}` };
}

/** `request` with the static section `text` put before its system instruction. */
export function prependInstruction(request: LlmRequest, text: string): LlmRequest {
  const trimmed = text.trim();
  if (trimmed === '') return request;
  const current = request.systemInstruction;
  if (!current) return { ...request, systemInstruction: trimmed, staticInstruction: trimmed };
  const known = request.staticInstruction;
  const systemInstruction = `${trimmed}${SEPARATOR}${current}`;
  if (known === undefined || !current.startsWith(known)) return { ...request, systemInstruction };
  const staticInstruction = known === '' ? trimmed : `${trimmed}${SEPARATOR}${known}`;
  return { ...request, systemInstruction, staticInstruction };
}
