import type { Content, FunctionCall, FunctionResponse, Part } from '@adk/core';
import { z } from 'zod';

import type { KeySpec } from './key-spec';

const BLOB_SPEC: KeySpec = { fields: { mimeType: 'leaf', data: 'leaf', displayName: 'leaf' } };
const FILE_SPEC: KeySpec = { fields: { mimeType: 'leaf', fileUri: 'leaf', displayName: 'leaf' } };

/** Model fields of a `FunctionCall` (its `args` are free-form). */
export const FUNCTION_CALL_SPEC: KeySpec = { fields: { id: 'leaf', name: 'leaf', args: 'opaque' } };
/** Model fields of a `FunctionResponse` (its `response` is free-form). */
export const FUNCTION_RESPONSE_SPEC: KeySpec = {
  fields: {
    id: 'leaf',
    name: 'leaf',
    response: 'opaque',
    willContinue: 'leaf',
    scheduling: 'leaf',
  },
};
/** Model fields of a genai `Part`. */
export const PART_SPEC: KeySpec = {
  fields: {
    text: 'leaf',
    thought: 'leaf',
    thoughtSignature: 'leaf',
    inlineData: BLOB_SPEC,
    fileData: FILE_SPEC,
    functionCall: FUNCTION_CALL_SPEC,
    functionResponse: FUNCTION_RESPONSE_SPEC,
    executableCode: { fields: { code: 'leaf', language: 'leaf' } },
    codeExecutionResult: { fields: { outcome: 'leaf', output: 'leaf' } },
    videoMetadata: { fields: { startOffset: 'leaf', endOffset: 'leaf', fps: 'leaf' } },
  },
};
/** Model fields of a genai `Content`. */
export const CONTENT_SPEC: KeySpec = { fields: { role: 'leaf', parts: PART_SPEC } };

/** A function call as eval files hold it (`tool_uses`). */
export const functionCallSchema: z.ZodType<FunctionCall> = z.looseObject({
  id: z.string().optional(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()).optional(),
});

/** A function response as eval files hold it (`tool_responses`). */
export const functionResponseSchema: z.ZodType<FunctionResponse> = z.looseObject({
  id: z.string().optional(),
  name: z.string(),
  response: z.record(z.string(), z.unknown()),
});

/** A genai `Part`; fields core does not model (`executableCode`...) are kept as they are. */
export const partSchema: z.ZodType<Part> = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  inlineData: z
    .looseObject({ mimeType: z.string(), data: z.string(), displayName: z.string().optional() })
    .optional(),
  fileData: z
    .looseObject({
      mimeType: z.string().optional(),
      fileUri: z.string(),
      displayName: z.string().optional(),
    })
    .optional(),
  functionCall: functionCallSchema.optional(),
  functionResponse: functionResponseSchema.optional(),
});

/** A genai `Content`: a role and its parts (Python allows both to be absent). */
export const contentSchema = z.looseObject({
  role: z.string().optional(),
  parts: z.array(partSchema).default([]),
}) as unknown as z.ZodType<Content>;
