/**
 * The parts of the AI SDK's language model specification this adapter reads and writes, declared
 * structurally for its three versions: v2 (`ai` 5), v3 (`ai` 6) and v4 (`ai` 7). The package has
 * no runtime dependency on `@ai-sdk/provider`, so a model of any of these versions, from any copy
 * of the provider packages, is accepted.
 */

import type { SpecProviderTool } from './provider-tools';
import type { SpecReasoning } from './thinking-options';

/** Finish reason: a string in v2, `{ unified, raw }` in v3 and v4. */
export type SpecFinishReason = string | { unified: string; raw?: string | undefined };

/** Usage: flat numbers in v2, nested token groups in v3 and v4. */
export type SpecUsage =
  | {
      inputTokens: number | undefined;
      outputTokens: number | undefined;
      totalTokens?: number | undefined;
      reasoningTokens?: number | undefined;
      cachedInputTokens?: number | undefined;
    }
  | {
      inputTokens: {
        total: number | undefined;
        noCache?: number | undefined;
        cacheRead?: number | undefined;
        cacheWrite?: number | undefined;
      };
      outputTokens: {
        total: number | undefined;
        text?: number | undefined;
        reasoning?: number | undefined;
      };
    };

/** A content item of a `doGenerate` result. */
export type SpecContent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string; providerMetadata?: Record<string, unknown> }
  | {
      type: 'tool-call';
      toolCallId: string;
      toolName: string;
      input: string;
      providerExecuted?: boolean;
      providerMetadata?: Record<string, unknown>;
    }
  | { type: 'file'; mediaType: string; data: string | Uint8Array }
  | { type: string; [key: string]: unknown };

/** A part of a `doStream` stream (the kinds the adapter acts on; others are ignored). */
export type SpecStreamPart =
  | { type: 'text-delta'; id?: string; delta?: string; textDelta?: string }
  | {
      type: 'reasoning-delta';
      id?: string;
      delta: string;
      providerMetadata?: Record<string, unknown>;
    }
  | { type: 'tool-input-start'; id: string; toolName: string; providerExecuted?: boolean }
  | { type: 'tool-input-delta'; id: string; delta: string }
  | {
      type: 'tool-call';
      toolCallId: string;
      toolName: string;
      input: string;
      providerExecuted?: boolean;
    }
  | { type: 'response-metadata'; modelId?: string }
  | { type: 'finish'; finishReason: SpecFinishReason; usage: SpecUsage }
  | { type: 'error'; error: unknown }
  | { type: string; [key: string]: unknown };

/** The call options the adapter sends (common to v2, v3 and v4). */
export interface SpecCallOptions {
  prompt: SpecMessage[];
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences?: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  responseFormat?: { type: 'text' } | { type: 'json'; schema?: Record<string, unknown> };
  tools?: Array<
    | {
        type: 'function';
        name: string;
        description?: string;
        inputSchema: Record<string, unknown>;
      }
    | SpecProviderTool
  >;
  /** v4 only: the provider-neutral reasoning effort. */
  reasoning?: SpecReasoning;
  toolChoice?:
    { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; toolName: string };
  abortSignal?: AbortSignal;
  providerOptions?: Record<string, Record<string, unknown>>;
  headers?: Record<string, string | undefined>;
}

export type SpecUserPart =
  | { type: 'text'; text: string }
  | { type: 'file'; data: string | URL; mediaType: string; filename?: string };

export type SpecMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: SpecUserPart[] }
  | {
      role: 'assistant';
      content: Array<
        | { type: 'text'; text: string }
        | {
            type: 'reasoning';
            text: string;
            providerOptions?: Record<string, Record<string, unknown>>;
          }
        | {
            type: 'tool-call';
            toolCallId: string;
            toolName: string;
            input: unknown;
            providerOptions?: Record<string, Record<string, unknown>>;
          }
      >;
    }
  | {
      role: 'tool';
      content: Array<{
        type: 'tool-result';
        toolCallId: string;
        toolName: string;
        output: { type: 'json'; value: unknown } | { type: 'text'; value: string };
      }>;
    };

/**
 * A language model of the AI SDK's provider specification, v2, v3 or v4: what
 * `openai('gpt-4o')`, `bedrock('...')`, `createOpenAICompatible(...)('...')` return.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: 'v2' | 'v3' | 'v4';
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: never): PromiseLike<unknown>;
  doStream(options: never): PromiseLike<unknown>;
}

/** What `doGenerate` resolves to (the fields read). */
export interface SpecGenerateResult {
  content: SpecContent[];
  finishReason: SpecFinishReason;
  usage: SpecUsage;
  response?: { modelId?: string };
}

/** What `doStream` resolves to. */
export interface SpecStreamResult {
  stream: ReadableStream<SpecStreamPart>;
}
