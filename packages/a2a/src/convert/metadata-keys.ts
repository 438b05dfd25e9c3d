/**
 * Metadata keys shared with the Python and JavaScript ADKs' A2A converters (`adk_` prefix), so
 * ADK agents in any language read each other's function calls, responses and thoughts.
 */
export const AdkMetadataKey = {
  /** On a data part: `function_call` or `function_response`. */
  type: 'adk_type',
  /** On a function-call data part: the call is long-running (the task waits for input). */
  isLongRunning: 'adk_is_long_running',
  /** On a text part: the text is the model's reasoning. */
  thought: 'adk_thought',
  appName: 'adk_app_name',
  userId: 'adk_user_id',
  sessionId: 'adk_session_id',
  invocationId: 'adk_invocation_id',
  author: 'adk_author',
  eventId: 'adk_event_id',
  branch: 'adk_branch',
  errorCode: 'adk_error_code',
} as const;

/** Values of {@link AdkMetadataKey.type}. */
export const AdkDataPartType = {
  functionCall: 'function_call',
  functionResponse: 'function_response',
} as const;
