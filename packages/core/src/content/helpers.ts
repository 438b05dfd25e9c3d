import type { Content, FunctionCall, FunctionResponse, Part } from './types';

/** A text part. */
export function textPart(text: string): Part {
  return { text };
}

/** A user message holding one text part. */
export function userContent(text: string): Content {
  return { role: 'user', parts: [{ text }] };
}

/** A model message holding one text part. */
export function modelContent(text: string): Content {
  return { role: 'model', parts: [{ text }] };
}

/** The concatenated answer text of a content (thought parts excluded); '' when there is none. */
export function getText(content: Content | undefined): string {
  if (!content) return '';
  let text = '';
  for (const part of content.parts) {
    if (part.text !== undefined && !part.thought) text += part.text;
  }
  return text;
}

/** Every function call in a content, in order. */
export function getFunctionCalls(content: Content | undefined): FunctionCall[] {
  const calls: FunctionCall[] = [];
  for (const part of content?.parts ?? []) if (part.functionCall) calls.push(part.functionCall);
  return calls;
}

/** Every function response in a content, in order. */
export function getFunctionResponses(content: Content | undefined): FunctionResponse[] {
  const responses: FunctionResponse[] = [];
  for (const part of content?.parts ?? []) {
    if (part.functionResponse) responses.push(part.functionResponse);
  }
  return responses;
}
