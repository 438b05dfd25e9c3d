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
  // Index loops here: `for...of` allocates per part over arrays of mixed kinds (frozen and not).
  const parts = content.parts;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    if (part.text !== undefined && !part.thought) text += part.text;
  }
  return text;
}

/** Every function call in a content, in order. */
export function getFunctionCalls(content: Content | undefined): FunctionCall[] {
  const calls: FunctionCall[] = [];
  const parts = content?.parts;
  if (parts === undefined) return calls;
  for (let index = 0; index < parts.length; index++) {
    const call = parts[index]!.functionCall;
    if (call) calls.push(call);
  }
  return calls;
}

/** Every function response in a content, in order. */
export function getFunctionResponses(content: Content | undefined): FunctionResponse[] {
  const responses: FunctionResponse[] = [];
  const parts = content?.parts;
  if (parts === undefined) return responses;
  for (let index = 0; index < parts.length; index++) {
    const response = parts[index]!.functionResponse;
    if (response) responses.push(response);
  }
  return responses;
}
