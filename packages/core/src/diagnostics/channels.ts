import diagnosticsChannel from 'node:diagnostics_channel';

import type { LlmRequest } from '../models/llm-request';
import type { LlmResponse, UsageMetadata } from '../models/llm-response';

/**
 * Lifecycle events published on `node:diagnostics_channel`, for `@adk/telemetry` or any other
 * observer. Nothing is built or published when a channel has no subscriber, so observability costs
 * nothing until someone listens.
 *
 * Every message carries a `spanId`; start messages also carry the `parentSpanId` of the enclosing
 * operation, so an observer can rebuild the tree run > agent > model call > tool call without
 * relying on async context (which async generators and parallel branches do not preserve).
 */

interface SpanStart {
  spanId: string;
  /** Span of the enclosing operation; undefined for a run. */
  parentSpanId: string | undefined;
  invocationId: string;
  appName: string;
  userId: string;
  sessionId: string;
  /** `performance.now()` at the start. */
  startTime: number;
}

interface SpanEnd {
  spanId: string;
  invocationId: string;
  durationMs: number;
}

interface SpanError extends SpanEnd {
  error: unknown;
}

export interface RunStartMessage extends SpanStart {
  agentName: string;
}
export interface RunEndMessage extends SpanEnd {
  eventCount: number;
}
export type RunErrorMessage = SpanError;

export interface AgentStartMessage extends SpanStart {
  agentName: string;
  agentDescription: string | undefined;
  branch: string | undefined;
}
export type AgentEndMessage = SpanEnd;
export type AgentErrorMessage = SpanError;

export interface ModelCallStartMessage extends SpanStart {
  agentName: string;
  model: string;
  stream: boolean;
  request: LlmRequest;
}
export interface ModelCallEndMessage extends SpanEnd {
  /** The final (aggregated) response. */
  response: LlmResponse;
  usage: UsageMetadata | undefined;
  finishReason: string | undefined;
}
export type ModelCallErrorMessage = SpanError;

export interface ToolCallStartMessage extends SpanStart {
  agentName: string;
  toolName: string;
  toolDescription: string | undefined;
  functionCallId: string;
  args: Record<string, unknown>;
  /** The tool's `telemetryAttributes`, when it has some. */
  toolAttributes?: Readonly<Record<string, string | number | boolean>>;
}
export interface ToolCallEndMessage extends SpanEnd {
  result: unknown;
}
export type ToolCallErrorMessage = SpanError;

/**
 * Several function calls of one model response were answered by one merged function-response
 * event. Published when the flow has that event, before it is yielded, and only when the response
 * asked for more than one call. It is an instant, not a span: `spanId` identifies the merged
 * response (for an observer that draws it as a span, like `@adk/telemetry`'s
 * `execute_tool (merged)`), and `parentSpanId` is the model call whose response asked for the
 * calls, the parent of their tool-call spans too.
 */
export interface ToolCallsMergedMessage {
  spanId: string;
  /** Span of the model call that asked for the calls (`undefined` when it had none). */
  parentSpanId: string | undefined;
  invocationId: string;
  appName: string;
  userId: string;
  sessionId: string;
  agentName: string;
  /** Id of the merged function-response event. */
  eventId: string;
  /** Ids of the function calls the merged event answers, in call order. */
  functionCallIds: string[];
}

/** Names of every lifecycle channel. */
export const channelNames = {
  runStart: 'adk:run:start',
  runEnd: 'adk:run:end',
  runError: 'adk:run:error',
  agentStart: 'adk:agent:start',
  agentEnd: 'adk:agent:end',
  agentError: 'adk:agent:error',
  modelCallStart: 'adk:model:start',
  modelCallEnd: 'adk:model:end',
  modelCallError: 'adk:model:error',
  toolCallStart: 'adk:tool:start',
  toolCallEnd: 'adk:tool:end',
  toolCallError: 'adk:tool:error',
  toolCallsMerged: 'adk:tool:merged',
} as const;

/** Message type published on each channel. */
export interface ChannelMessages {
  runStart: RunStartMessage;
  runEnd: RunEndMessage;
  runError: RunErrorMessage;
  agentStart: AgentStartMessage;
  agentEnd: AgentEndMessage;
  agentError: AgentErrorMessage;
  modelCallStart: ModelCallStartMessage;
  modelCallEnd: ModelCallEndMessage;
  modelCallError: ModelCallErrorMessage;
  toolCallStart: ToolCallStartMessage;
  toolCallEnd: ToolCallEndMessage;
  toolCallError: ToolCallErrorMessage;
  toolCallsMerged: ToolCallsMergedMessage;
}

export type ChannelKey = keyof ChannelMessages;

const channels = Object.fromEntries(
  Object.entries(channelNames).map(([key, name]) => [key, diagnosticsChannel.channel(name)]),
) as Record<ChannelKey, diagnosticsChannel.Channel>;

/** True when someone subscribes to the channel; check it before building an expensive message. */
export function hasSubscribers(key: ChannelKey): boolean {
  return channels[key].hasSubscribers;
}

/**
 * Publish a lifecycle message. `build` runs only when the channel has subscribers.
 */
export function publish<K extends ChannelKey>(key: K, build: () => ChannelMessages[K]): void {
  const channel = channels[key];
  if (channel.hasSubscribers) channel.publish(build());
}

/**
 * Subscribe to a lifecycle channel; returns a function that unsubscribes.
 *
 * @example
 * ```ts
 * const stop = subscribe('toolCallEnd', (m) => console.log(m.spanId, m.durationMs));
 * ```
 */
export function subscribe<K extends ChannelKey>(
  key: K,
  listener: (message: ChannelMessages[K]) => void,
): () => void {
  const handler = (message: unknown) => listener(message as ChannelMessages[K]);
  diagnosticsChannel.subscribe(channelNames[key], handler);
  return () => {
    diagnosticsChannel.unsubscribe(channelNames[key], handler);
  };
}
