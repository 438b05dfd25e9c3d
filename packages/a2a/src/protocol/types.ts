/**
 * The A2A protocol's data objects (specification 0.3), with the field names of the wire JSON.
 * Only the parts this package reads or writes are typed; unknown fields are kept as they are.
 */

/** Optional free-form data on most objects. */
export type A2aMetadata = Record<string, unknown>;

/** A piece of text. */
export interface A2aTextPart {
  kind: 'text';
  text: string;
  metadata?: A2aMetadata;
}

/** File content carried inline, base64-encoded. */
export interface A2aFileWithBytes {
  bytes: string;
  mimeType?: string;
  name?: string;
}

/** File content referenced by URI. */
export interface A2aFileWithUri {
  uri: string;
  mimeType?: string;
  name?: string;
}

/** A file, inline or by URI. */
export interface A2aFilePart {
  kind: 'file';
  file: A2aFileWithBytes | A2aFileWithUri;
  metadata?: A2aMetadata;
}

/** Structured data (a JSON object). */
export interface A2aDataPart {
  kind: 'data';
  data: Record<string, unknown>;
  metadata?: A2aMetadata;
}

/** One piece of a message or an artifact. */
export type A2aPart = A2aTextPart | A2aFilePart | A2aDataPart;

/** `user` for the client side, `agent` for the remote agent. */
export type A2aRole = 'user' | 'agent';

/** One message between a client and an agent. */
export interface A2aMessage {
  kind: 'message';
  messageId: string;
  role: A2aRole;
  parts: A2aPart[];
  /** The conversation the message belongs to (set by the server when absent). */
  contextId?: string;
  /** The task the message continues (for example one waiting for input). */
  taskId?: string;
  referenceTaskIds?: string[];
  extensions?: string[];
  metadata?: A2aMetadata;
}

/** The states of a task. `completed`, `canceled`, `failed` and `rejected` are terminal. */
export type A2aTaskState =
  | 'submitted'
  | 'working'
  | 'input-required'
  | 'completed'
  | 'canceled'
  | 'failed'
  | 'rejected'
  | 'auth-required'
  | 'unknown';

/** Where a task stands, with the agent's latest message. */
export interface A2aTaskStatus {
  state: A2aTaskState;
  message?: A2aMessage;
  /** ISO 8601 time of the status. */
  timestamp?: string;
}

/** An output of a task (the agent's answer, a file...). */
export interface A2aArtifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: A2aPart[];
  extensions?: string[];
  metadata?: A2aMetadata;
}

/** A unit of work the agent runs for one or more messages. */
export interface A2aTask {
  kind: 'task';
  id: string;
  contextId: string;
  status: A2aTaskStatus;
  history?: A2aMessage[];
  artifacts?: A2aArtifact[];
  metadata?: A2aMetadata;
}

/** Streamed: the task's status changed. `final` marks the last event of the stream. */
export interface A2aTaskStatusUpdateEvent {
  kind: 'status-update';
  taskId: string;
  contextId: string;
  status: A2aTaskStatus;
  final: boolean;
  metadata?: A2aMetadata;
}

/** Streamed: an artifact was produced (or, with `append`, extended). */
export interface A2aTaskArtifactUpdateEvent {
  kind: 'artifact-update';
  taskId: string;
  contextId: string;
  artifact: A2aArtifact;
  append?: boolean;
  lastChunk?: boolean;
  metadata?: A2aMetadata;
}

/** What `message/send` returns. */
export type A2aSendMessageResult = A2aTask | A2aMessage;

/** What one frame of `message/stream` carries. */
export type A2aStreamEvent =
  A2aTask | A2aMessage | A2aTaskStatusUpdateEvent | A2aTaskArtifactUpdateEvent;

/** Settings of `message/send` and `message/stream`. */
export interface A2aMessageSendConfiguration {
  acceptedOutputModes?: string[];
  /** How many recent messages of the task's history the answer includes. */
  historyLength?: number;
  /** `false`: return at once with the task still running (default `true`: wait for the end). */
  blocking?: boolean;
  pushNotificationConfig?: unknown;
}

/** Params of `message/send` and `message/stream`. */
export interface A2aMessageSendParams {
  message: A2aMessage;
  configuration?: A2aMessageSendConfiguration;
  metadata?: A2aMetadata;
}

/** Params of `tasks/get`. */
export interface A2aTaskQueryParams {
  id: string;
  historyLength?: number;
  metadata?: A2aMetadata;
}

/** Params of `tasks/cancel` and `tasks/resubscribe`. */
export interface A2aTaskIdParams {
  id: string;
  metadata?: A2aMetadata;
}

/** What the agent can do besides plain request/response. */
export interface A2aAgentCapabilities {
  streaming?: boolean;
  pushNotifications?: boolean;
  stateTransitionHistory?: boolean;
  extensions?: unknown[];
}

/** One thing the agent is good at. */
export interface A2aAgentSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
}

/** Who runs the agent. */
export interface A2aAgentProvider {
  organization: string;
  url: string;
}

/**
 * The self-description an A2A server publishes at `/.well-known/agent-card.json`: who the agent
 * is, where to call it (`url`) and what it can do.
 */
export interface A2aAgentCard {
  protocolVersion: string;
  name: string;
  description: string;
  /** The JSON-RPC endpoint. */
  url: string;
  preferredTransport?: string;
  version: string;
  capabilities: A2aAgentCapabilities;
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: A2aAgentSkill[];
  provider?: A2aAgentProvider;
  documentationUrl?: string;
  iconUrl?: string;
  securitySchemes?: Record<string, unknown>;
  security?: Record<string, string[]>[];
  supportsAuthenticatedExtendedCard?: boolean;
  additionalInterfaces?: { url: string; transport: string }[];
}

/** The A2A protocol version this package speaks. */
export const A2A_PROTOCOL_VERSION = '0.3.0';

/** Where a server publishes its agent card. */
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

/** The path of the agent card in protocol versions before 0.3, still commonly served. */
export const LEGACY_AGENT_CARD_PATH = '/.well-known/agent.json';

/** True for states a task never leaves. */
export function isTerminalTaskState(state: A2aTaskState): boolean {
  return (
    state === 'completed' || state === 'canceled' || state === 'failed' || state === 'rejected'
  );
}
