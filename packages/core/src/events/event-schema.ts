import { z } from 'zod';

/**
 * zod schemas of the event wire format (camelCase JSON, as the official ADKs write it). Unknown
 * keys are kept, so events written by a newer ADK (or another language's ADK) survive a round trip.
 */

const blobSchema = z.looseObject({
  mimeType: z.string(),
  data: z.string(),
  displayName: z.string().optional(),
});

const fileDataSchema = z.looseObject({
  mimeType: z.string().optional(),
  fileUri: z.string(),
  displayName: z.string().optional(),
});

const functionCallSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()).optional(),
});

const functionResponseSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string(),
  response: z.record(z.string(), z.unknown()),
});

/** Schema of one content part. */
export const partSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  inlineData: blobSchema.optional(),
  fileData: fileDataSchema.optional(),
  functionCall: functionCallSchema.optional(),
  functionResponse: functionResponseSchema.optional(),
  executableCode: z.looseObject({ language: z.string().optional(), code: z.string() }).optional(),
  codeExecutionResult: z
    .looseObject({ outcome: z.string().optional(), output: z.string().optional() })
    .optional(),
});

/** Schema of a message content. */
export const contentSchema = z.looseObject({
  role: z.string().optional(),
  parts: z.array(partSchema),
});

const toolConfirmationSchema = z.looseObject({
  hint: z.string().optional(),
  confirmed: z.boolean(),
  payload: z.unknown().optional(),
});

/** Schema of event actions; the three dictionaries default to `{}`. */
export const eventActionsSchema = z.looseObject({
  stateDelta: z.record(z.string(), z.unknown()).default(() => ({})),
  artifactDelta: z.record(z.string(), z.number().int()).default(() => ({})),
  transferToAgent: z.string().optional(),
  escalate: z.boolean().optional(),
  skipSummarization: z.boolean().optional(),
  requestedToolConfirmations: z.record(z.string(), toolConfirmationSchema).default(() => ({})),
  rewindBeforeInvocationId: z.string().min(1).optional(),
  compaction: z
    .looseObject({
      startTimestamp: z.number(),
      endTimestamp: z.number(),
      compactedContent: contentSchema,
    })
    .optional(),
});

const usageMetadataSchema = z.looseObject({
  promptTokenCount: z.number().optional(),
  candidatesTokenCount: z.number().optional(),
  totalTokenCount: z.number().optional(),
  cachedContentTokenCount: z.number().optional(),
  thoughtsTokenCount: z.number().optional(),
});

const transcriptionSchema = z.looseObject({
  text: z.string().optional(),
  finished: z.boolean().optional(),
});

/** Schema of a whole event. */
export const eventSchema = z.looseObject({
  id: z.string().min(1),
  invocationId: z.string(),
  author: z.string().min(1),
  branch: z.string().optional(),
  timestamp: z.number(),
  actions: eventActionsSchema.default(() => ({
    stateDelta: {},
    artifactDelta: {},
    requestedToolConfirmations: {},
  })),
  longRunningToolIds: z.array(z.string()).optional(),
  content: contentSchema.optional(),
  partial: z.boolean().optional(),
  turnComplete: z.boolean().optional(),
  finishReason: z.string().optional(),
  usageMetadata: usageMetadataSchema.optional(),
  errorCode: z.string().optional(),
  errorMessage: z.string().optional(),
  interrupted: z.boolean().optional(),
  modelVersion: z.string().optional(),
  groundingMetadata: z.record(z.string(), z.unknown()).optional(),
  citationMetadata: z.record(z.string(), z.unknown()).optional(),
  customMetadata: z.record(z.string(), z.unknown()).optional(),
  inputTranscription: transcriptionSchema.optional(),
  outputTranscription: transcriptionSchema.optional(),
  liveSessionResumptionUpdate: z
    .looseObject({ newHandle: z.string().optional(), resumable: z.boolean().optional() })
    .optional(),
  goAway: z.looseObject({ timeLeftMs: z.number().optional() }).optional(),
  cacheMetadata: z
    .looseObject({
      cacheName: z.string().optional(),
      expireTime: z.number().optional(),
      fingerprint: z.string(),
      invocationsUsed: z.number().int().optional(),
      contentsCount: z.number().int(),
      createdAt: z.number().optional(),
    })
    .optional(),
});
