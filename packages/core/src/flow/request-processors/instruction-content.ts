import type { Content } from '../../content';
import type { LlmRequest } from '../../models';

/**
 * `request` with `text` (an agent's instruction that depends on the session) as a user message in
 * its contents, placed as Python ADK places a dynamic instruction next to a static one: before the
 * trailing run of user messages (the new user message), but after a model turn or a function
 * response. Everything before it stays a growing prefix from one request to the next.
 */
export function withInstructionContent(request: LlmRequest, text: string): LlmRequest {
  const trimmed = text.trim();
  if (trimmed === '') return request;
  const source = request.contents;
  const index = instructionIndex(source);
  const contents: Content[] = new Array<Content>(source.length + 1);
  for (let i = 0; i < index; i++) contents[i] = source[i]!;
  contents[index] = { role: 'user', parts: [{ text: trimmed }] };
  for (let i = index; i < source.length; i++) contents[i + 1] = source[i]!;
  return { ...request, contents, instructionContentIndex: index };
}

function instructionIndex(contents: readonly Content[]): number {
  let index = contents.length;
  while (index > 0) {
    const content = contents[index - 1]!;
    if (content.role !== 'user') break;
    if (content.parts.some((part) => part.functionResponse !== undefined)) break;
    index--;
  }
  return index;
}
