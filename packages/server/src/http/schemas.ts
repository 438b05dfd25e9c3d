import { z } from 'zod';

/**
 * Request bodies of the ADK API, in the official snake_case. The ADK web UI and the official
 * clients also send camelCase (`appName`, `newMessage`...): both spellings are accepted, as the
 * official server does.
 */

const aliases: Record<string, string> = {
  appName: 'app_name',
  userId: 'user_id',
  sessionId: 'session_id',
  newMessage: 'new_message',
  stateDelta: 'state_delta',
  functionCallEventId: 'function_call_event_id',
  invocationId: 'invocation_id',
  customMetadata: 'custom_metadata',
  rewindBeforeInvocationId: 'rewind_before_invocation_id',
};

/** Rename camelCase keys to their snake_case names (the snake_case key wins when both are set). */
function snakeKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const name = aliases[key] ?? key;
    if (name !== key && Object.hasOwn(value, name)) continue;
    out[name] = item;
  }
  return out;
}

const jsonObject = z.record(z.string(), z.unknown());

/** A content part; unknown members are kept as they are. */
export const partSchema = z
  .object({
    text: z.string().optional(),
    thought: z.boolean().optional(),
    thoughtSignature: z.string().optional(),
    inlineData: z
      .object({ mimeType: z.string(), data: z.string(), displayName: z.string().optional() })
      .optional(),
    fileData: z
      .object({
        mimeType: z.string().optional(),
        fileUri: z.string(),
        displayName: z.string().optional(),
      })
      .optional(),
    functionCall: z
      .object({ id: z.string().optional(), name: z.string().min(1), args: jsonObject.optional() })
      .optional(),
    functionResponse: z
      .object({ id: z.string().optional(), name: z.string().min(1), response: jsonObject })
      .optional(),
  })
  .loose();

/** A message: an optional role and at least one part. */
export const contentSchema = z.object({
  role: z.string().optional(),
  parts: z.array(partSchema).min(1, 'a message needs at least one part'),
});

const id = (what: string) =>
  z.string({ error: `${what} must be a string` }).min(1, `${what} must not be empty`);

/** Body of `POST /run` and `POST /run_sse`. */
export const runAgentRequestSchema = z.preprocess(
  snakeKeys,
  z.object({
    app_name: id('app_name'),
    user_id: id('user_id'),
    session_id: id('session_id'),
    new_message: contentSchema,
    streaming: z.boolean().default(false),
    state_delta: jsonObject.nullish(),
    /** Sent by the web UI with function responses; accepted for compatibility. */
    function_call_event_id: z.string().nullish(),
    /** Accepted for compatibility; every run starts a new invocation. */
    invocation_id: z.string().nullish(),
    /**
     * This project's extension: stop the run when the client disconnects (a Stop button), where
     * by default it goes on for a reconnect (`abortRunOnDisconnect` sets the server's default).
     */
    abort_on_disconnect: z.boolean().nullish(),
  }),
);

/** A validated run request. */
export type RunAgentRequest = z.infer<typeof runAgentRequestSchema>;

/** Body of `POST /apps/{app}/users/{user}/sessions`. */
export const createSessionRequestSchema = z.preprocess(
  snakeKeys,
  z.object({
    session_id: z.string().min(1, 'session_id must not be empty').nullish(),
    state: jsonObject.nullish(),
    /** Events to store in the new session, oldest first. */
    events: z.array(jsonObject).nullish(),
  }),
);

/** Body of `POST /apps/{app}/users/{user}/sessions/{id}`: the initial state itself. */
export const initialStateSchema = jsonObject.nullish();

/** Body of `PATCH /apps/{app}/users/{user}/sessions/{id}`. */
export const updateSessionRequestSchema = z.preprocess(
  snakeKeys,
  z.object({ state_delta: jsonObject }),
);

/** Body of `POST /apps/{app}/users/{user}/sessions/{id}/rewind`. */
export const rewindSessionRequestSchema = z.preprocess(
  snakeKeys,
  z.object({
    rewind_before_invocation_id: z.string().min(1, 'rewind_before_invocation_id must not be empty'),
  }),
);

/** Body of `POST /apps/{app}/users/{user}/sessions/{id}/artifacts`. */
export const saveArtifactRequestSchema = z.preprocess(
  snakeKeys,
  z.object({
    filename: z.string().min(1, 'filename must not be empty'),
    artifact: partSchema,
    custom_metadata: jsonObject.nullish(),
  }),
);

/** Body of `PATCH /apps/{app}/users/{user}/memory`. */
export const updateMemoryRequestSchema = z.preprocess(
  snakeKeys,
  z.object({ session_id: id('session_id') }),
);

/** A non-negative integer path or query parameter (artifact versions). */
export const versionSchema = z.coerce
  .number({ error: 'version must be a number' })
  .int('version must be an integer')
  .min(0, 'version must not be negative');
