/** The wire shapes of the ADK API this UI reads (camelCase, as the official servers send). */

export interface Blob {
  mimeType?: string;
  data?: string;
  displayName?: string;
}

export interface Part {
  text?: string;
  thought?: boolean;
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response?: Record<string, unknown> };
  inlineData?: Blob;
  fileData?: { fileUri?: string; mimeType?: string; displayName?: string };
  /** Code the model's provider ran (provider-side code execution). */
  executableCode?: { language?: string; code?: string };
  codeExecutionResult?: { outcome?: string; output?: string };
}

/** A page a grounded answer used (`web`: web search; `retrievedContext`: URL context, RAG). */
export interface GroundingChunk {
  web?: { uri?: string; title?: string };
  retrievedContext?: { uri?: string; title?: string };
}

export interface Content {
  role?: string;
  parts: Part[];
}

export interface EventActions {
  stateDelta?: Record<string, unknown>;
  artifactDelta?: Record<string, number>;
  transferToAgent?: string;
  escalate?: boolean;
}

/** A live run's transcription of speech. */
export interface Transcription {
  text?: string;
  finished?: boolean;
}

export interface AdkEvent {
  id: string;
  invocationId: string;
  author: string;
  timestamp: number;
  content?: Content;
  actions?: EventActions;
  partial?: boolean;
  branch?: string;
  errorCode?: string;
  errorMessage?: string;
  /** How the answer was grounded (provider-side web search, URL context). */
  groundingMetadata?: { webSearchQueries?: unknown[]; groundingChunks?: GroundingChunk[] };
  /** The sources the answer cites. */
  citationMetadata?: { citations?: Array<{ uri?: string; title?: string }> };
  /** Free-form metadata; graph workflows keep their run records under `adk_workflow`. */
  customMetadata?: Record<string, unknown>;
  /** The error field of a failed `/run_sse` frame. */
  error?: string;
  /** Live runs: a chunk (partial) or the whole finished utterance of what the user said. */
  inputTranscription?: Transcription;
  /** Live runs: a chunk (partial) or the whole finished utterance of what the model said. */
  outputTranscription?: Transcription;
  /** Live runs: the user spoke over the model; stop playing its audio. */
  interrupted?: boolean;
  /** Live runs: the model finished its turn. */
  turnComplete?: boolean;
  usageMetadata?: {
    promptTokenCount?: number;
    candidatesTokenCount?: number;
    totalTokenCount?: number;
  };
}

export interface Session {
  id: string;
  appName: string;
  userId: string;
  state: Record<string, unknown>;
  events: AdkEvent[];
  lastUpdateTime: number;
}

/** One span of `/debug/trace/session/{id}` (times in nanoseconds). */
export interface TraceSpan {
  name: string;
  span_id: string;
  trace_id: string;
  parent_span_id: string | null;
  start_time: number;
  end_time: number | null;
  attributes: Record<string, unknown>;
}

/** `/dev/apps/{app}/build_graph`: the agent tree. */
export interface AgentDescription {
  name: string;
  description?: string;
  agent_class?: string;
  model?: string;
  tools?: { name: string }[];
  sub_agents?: AgentDescription[];
  /** The nodes and edges of a graph workflow (`@adk/workflow`); `__START__` is its start. */
  graph?: WorkflowGraphDescription;
}

/** A graph workflow's nodes (with their kind) and edges (with their routes). */
export interface WorkflowGraphDescription {
  nodes: { name: string; kind: string }[];
  edges: { from: string; to: string; routes?: string[] }[];
}

export interface AppInfo {
  name: string;
  description?: string;
}

/** A background run of `/apps/{app}/users/{user}/jobs` (an `@adk/jobs` job; times in ms). */
export interface BackgroundJob {
  id: string;
  queue: string;
  priority: number;
  appName: string;
  userId: string;
  /** The session it runs in; absent: `job-<id>`. */
  sessionId?: string;
  message: Content;
  state: 'pending' | 'running' | 'completed' | 'dead' | 'cancelled';
  runAt: number;
  attempt: number;
  maxAttempts: number;
  lastError?: { name: string; message: string; code?: string };
  result?: { finalText: string; eventCount: number; sessionId: string };
  createdAt: number;
  updatedAt: number;
  startedAt?: number;
  finishedAt?: number;
}

/** A frame of `GET /apps/{app}/users/{user}/jobs/stream`. */
export interface JobStreamFrame {
  reset?: boolean;
  jobs?: BackgroundJob[];
  removed?: string[];
  /** The server's store failed; the stream ends. */
  error?: string;
}
