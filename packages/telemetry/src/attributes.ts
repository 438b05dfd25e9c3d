/**
 * Attribute names put on spans and metrics: the OpenTelemetry GenAI semantic conventions, plus the
 * `gcp.vertex.agent.*` names the official ADKs use (so existing dashboards and trace viewers work).
 */
export const Attr = {
  WORKFLOW_NAME: 'adk.workflow.name',
  WORKFLOW_NODE_NAME: 'adk.workflow.node.name',
  WORKFLOW_NODE_PATH: 'adk.workflow.node.path',
  WORKFLOW_NODE_ROUTE: 'adk.workflow.node.route',
  WORKFLOW_NODE_RETRY_COUNT: 'adk.workflow.node.retry_count',
  WORKFLOW_NODE_OUTCOME: 'adk.workflow.node.outcome',
  OPERATION_NAME: 'gen_ai.operation.name',
  SYSTEM: 'gen_ai.system',
  AGENT_NAME: 'gen_ai.agent.name',
  AGENT_DESCRIPTION: 'gen_ai.agent.description',
  CONVERSATION_ID: 'gen_ai.conversation.id',
  REQUEST_MODEL: 'gen_ai.request.model',
  REQUEST_TEMPERATURE: 'gen_ai.request.temperature',
  REQUEST_TOP_P: 'gen_ai.request.top_p',
  REQUEST_MAX_TOKENS: 'gen_ai.request.max_tokens',
  RESPONSE_MODEL: 'gen_ai.response.model',
  RESPONSE_FINISH_REASONS: 'gen_ai.response.finish_reasons',
  USAGE_INPUT_TOKENS: 'gen_ai.usage.input_tokens',
  USAGE_OUTPUT_TOKENS: 'gen_ai.usage.output_tokens',
  /** Input tokens read from a provider's cache (Gemini `cachedContentTokenCount`). */
  USAGE_CACHE_READ_INPUT_TOKENS: 'gen_ai.usage.cache_read.input_tokens',
  TOKEN_TYPE: 'gen_ai.token.type',
  TOOL_NAME: 'gen_ai.tool.name',
  TOOL_DESCRIPTION: 'gen_ai.tool.description',
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
  ERROR_TYPE: 'error.type',
  INVOCATION_ID: 'gcp.vertex.agent.invocation_id',
  SESSION_ID: 'gcp.vertex.agent.session_id',
  LLM_REQUEST: 'gcp.vertex.agent.llm_request',
  LLM_RESPONSE: 'gcp.vertex.agent.llm_response',
  TOOL_CALL_ARGS: 'gcp.vertex.agent.tool_call_args',
  TOOL_RESPONSE: 'gcp.vertex.agent.tool_response',
  /** Id of the event a span produced (on `execute_tool (merged)`: the merged response event). */
  EVENT_ID: 'gcp.vertex.agent.event_id',
  APP_NAME: 'adk.app.name',
  BRANCH: 'adk.branch',
  STREAM: 'adk.model.stream',
  EVENT_COUNT: 'adk.run.event_count',
  /** On `execute_tool (merged)`: the function call ids of the merged response, in call order. */
  MERGED_CALL_IDS: 'adk.tool.merged_call_ids',
  /** Job attempts (`@adk/jobs`): the job's id, queue, priority, attempt and attempts allowed. */
  JOB_ID: 'adk.job.id',
  JOB_QUEUE: 'adk.job.queue',
  JOB_PRIORITY: 'adk.job.priority',
  JOB_ATTEMPT: 'adk.job.attempt',
  JOB_MAX_ATTEMPTS: 'adk.job.max_attempts',
  JOB_WORKER_ID: 'adk.job.worker_id',
  USER_ID: 'adk.user.id',
  /** How the attempt ended: `completed`, `retrying`, `dead` or `released`. */
  JOB_OUTCOME: 'adk.job.outcome',
  /** A retrying job's next start (ISO 8601). */
  JOB_RETRY_AT: 'adk.job.retry_at',
  /** Why a job was given back unrun: `stopping` or `lease-lost`. */
  JOB_RELEASE_REASON: 'adk.job.release_reason',
} as const;

/** How a job attempt ended, the value of `adk.job.outcome`. */
export type JobOutcome = 'completed' | 'retrying' | 'dead' | 'released';

/** `gen_ai.tool.name` and `gen_ai.tool.description` of the merged span, as in the Python ADK. */
export const MERGED_TOOLS = '(merged tools)';

/** Value of `gen_ai.system` on model-call spans, as in the official ADKs. */
export const GEN_AI_SYSTEM = 'gcp.vertex.agent';

/** Span names, as in the official ADKs. */
export const SpanName = {
  run: 'invocation',
  agent: (name: string) => `invoke_agent ${name}`,
  model: 'call_llm',
  tool: (name: string) => `execute_tool ${name}`,
  /** The merged function-response event of a model response with several function calls. */
  mergedTools: 'execute_tool (merged)',
  /** One attempt of a background job of `@adk/jobs`; its run's `invocation` is its child. */
  jobAttempt: (appName: string) => `run_job ${appName}`,
  /** One execution of a node of an `@adk/workflow` graph; its parent is the workflow's agent span. */
  workflowNode: (nodeName: string) => `workflow_node ${nodeName}`,
} as const;

/** Events added to a job attempt span. */
export const JobEventName = {
  /** The attempt failed and the job will run again (`adk.job.retry_at`). */
  retrying: 'job.retrying',
  /** The attempt failed and no attempts are left. */
  dead: 'job.dead',
  /** The worker gave the job back unrun (`adk.job.release_reason`). */
  released: 'job.released',
} as const;

/** Metric instrument names. */
export const MetricName = {
  /** GenAI semconv: duration of model calls, agent runs and tool calls, in seconds. */
  OPERATION_DURATION: 'gen_ai.client.operation.duration',
  /** GenAI semconv: tokens per model call, split by `gen_ai.token.type`. */
  TOKEN_USAGE: 'gen_ai.client.token.usage',
  /** Duration of whole runs (`Runner.run`), in seconds. */
  INVOCATION_DURATION: 'adk.invocation.duration',
  /** Running total of tokens, split by `gen_ai.token.type`. */
  TOKEN_COUNT: 'adk.token.count',
  /** Duration of job attempts (`@adk/jobs`), in seconds, by queue, app and outcome. */
  JOB_DURATION: 'adk.job.duration',
  /** Finished job attempts, by queue, app and `adk.job.outcome`. */
  JOB_OUTCOMES: 'adk.job.outcomes',
} as const;
