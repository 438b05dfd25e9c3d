import { z } from 'zod';

import {
  CONTENT_SPEC,
  FUNCTION_CALL_SPEC,
  FUNCTION_RESPONSE_SPEC,
  PART_SPEC,
  contentSchema,
  functionCallSchema,
  functionResponseSchema,
  partSchema,
} from './content-schema';
import type { KeySpec } from './key-spec';

/** Model fields of a `Rubric`. */
export const RUBRIC_SPEC: KeySpec = {
  fields: {
    rubricId: 'leaf',
    rubricContent: { fields: { textProperty: 'leaf' } },
    description: 'leaf',
    type: 'leaf',
  },
};

/** A rubric: one property an LLM judge says yes or no to (Python's `Rubric`). */
export const rubricSchema = z.looseObject({
  rubricId: z.string(),
  rubricContent: z.looseObject({ textProperty: z.string().optional() }),
  description: z.string().optional(),
  type: z.string().optional(),
});

const INTERMEDIATE_SPEC: KeySpec = {
  fields: {
    toolUses: FUNCTION_CALL_SPEC,
    toolResponses: FUNCTION_RESPONSE_SPEC,
    intermediateResponses: { tuple: ['leaf', PART_SPEC] },
    invocationEvents: {
      fields: {
        author: 'leaf',
        content: CONTENT_SPEC,
        groundingMetadata: 'opaque',
        usageMetadata: 'opaque',
        modelVersion: 'leaf',
      },
    },
  },
};

/** Model fields of an `Invocation` (one user turn and what the agent did). */
export const INVOCATION_SPEC: KeySpec = {
  fields: {
    invocationId: 'leaf',
    userContent: CONTENT_SPEC,
    finalResponse: CONTENT_SPEC,
    intermediateData: INTERMEDIATE_SPEC,
    creationTimestamp: 'leaf',
    inferenceCallCount: 'leaf',
    duration: 'leaf',
    rubrics: RUBRIC_SPEC,
    appDetails: 'opaque',
  },
};

/**
 * What the agent did between the user's message and its final answer: Python's
 * `IntermediateData` (tool uses, tool responses, sub-agents' intermediate responses) or its newer
 * `InvocationEvents` (the events, projected).
 */
export const intermediateDataSchema = z.looseObject({
  toolUses: z.array(functionCallSchema).optional(),
  toolResponses: z.array(functionResponseSchema).optional(),
  intermediateResponses: z.array(z.tuple([z.string(), z.array(partSchema)])).optional(),
  invocationEvents: z
    .array(z.looseObject({ author: z.string(), content: contentSchema.optional() }))
    .optional(),
});

/** One turn of a conversation: the user's content, the final response and the tool uses on the way. */
export const invocationSchema = z.looseObject({
  invocationId: z.string().default(''),
  userContent: contentSchema,
  finalResponse: contentSchema.optional(),
  intermediateData: intermediateDataSchema.optional(),
  creationTimestamp: z.number().default(0),
  rubrics: z.array(rubricSchema).optional(),
});

/** Values a case's session starts with (Python's `SessionInput`). */
export const sessionInputSchema = z.looseObject({
  appName: z.string(),
  userId: z.string(),
  sessionId: z.string().optional(),
  state: z.record(z.string(), z.unknown()).default({}),
});

/** A goal for a simulated user: the first message and the plan it follows (Python's `ConversationScenario`). */
export const conversationScenarioSchema = z.looseObject({
  startingPrompt: z.string(),
  conversationPlan: z.string(),
  userPersona: z.unknown().optional(),
});

/** Model fields of an `EvalCase`. */
export const EVAL_CASE_SPEC: KeySpec = {
  fields: {
    evalId: 'leaf',
    conversation: INVOCATION_SPEC,
    conversationScenario: {
      fields: { startingPrompt: 'leaf', conversationPlan: 'leaf', userPersona: 'opaque' },
    },
    sessionInput: {
      fields: { appName: 'leaf', userId: 'leaf', sessionId: 'leaf', state: 'opaque' },
    },
    creationTimestamp: 'leaf',
    rubrics: RUBRIC_SPEC,
    finalSessionState: 'opaque',
  },
};

/**
 * One eval case: a static `conversation` (turns replayed in order) or a `conversationScenario`
 * (a simulated user), never both.
 */
export const evalCaseSchema = z
  .looseObject({
    evalId: z.string(),
    conversation: z.array(invocationSchema).optional(),
    conversationScenario: conversationScenarioSchema.optional(),
    sessionInput: sessionInputSchema.optional(),
    creationTimestamp: z.number().default(0),
    rubrics: z.array(rubricSchema).optional(),
    finalSessionState: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((c) => (c.conversation === undefined) !== (c.conversationScenario === undefined), {
    message: 'Exactly one of conversation and conversation_scenario must be given.',
    path: ['conversation'],
  });

/** Model fields of an `EvalSet`; its own fields are snake_case in Python's HTTP answers too. */
export const EVAL_SET_SPEC: KeySpec = {
  unaliased: true,
  fields: {
    evalSetId: 'leaf',
    name: 'leaf',
    description: 'leaf',
    evalCases: EVAL_CASE_SPEC,
    creationTimestamp: 'leaf',
  },
};

/** A set of eval cases (`*.evalset.json`). */
export const evalSetSchema = z.looseObject({
  evalSetId: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  evalCases: z.array(evalCaseSchema).default([]),
  creationTimestamp: z.number().default(0),
});

/** A rubric. */
export type Rubric = z.output<typeof rubricSchema>;
/** Intermediate data of an invocation. */
export type IntermediateData = z.output<typeof intermediateDataSchema>;
/** One turn of a conversation. */
export type Invocation = z.output<typeof invocationSchema>;
/** The session an eval case starts with. */
export type SessionInput = z.output<typeof sessionInputSchema>;
/** A simulated user's goal and plan. */
export type ConversationScenario = z.output<typeof conversationScenarioSchema>;
/** One eval case. */
export type EvalCase = z.output<typeof evalCaseSchema>;
/** A set of eval cases. */
export type EvalSet = z.output<typeof evalSetSchema>;
