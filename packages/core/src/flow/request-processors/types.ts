import type { LlmRequest } from '../../models';

export type { RequestProcessor, RequestProcessorInput } from '../flow-agent';

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
