import type { OpenAIAnnotation } from './openai-web-search';

/** Wire shapes of the Chat Completions API, only the members this package reads or writes. */

/** A content part of a user message. */
export type OpenAIContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: string } }
  | { type: 'file'; file: { filename?: string; file_data: string } };

/** A tool call of an assistant message. */
export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** One message of the `messages` array. */
export type OpenAIMessage =
  | { role: 'system' | 'developer'; content: string }
  | { role: 'user'; content: string | OpenAIContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAIToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A `POST /chat/completions` request body. */
export interface OpenAIRequest {
  model: string;
  messages: OpenAIMessage[];
  tools?: Array<{
    type: 'function';
    function: { name: string; description?: string; parameters: Record<string, unknown> };
  }>;
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };
  stream?: boolean;
  stream_options?: { include_usage: boolean };
  [key: string]: unknown;
}

/** Token counts of a completion. */
export interface OpenAIUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

/** The assistant message of a non-streamed completion. */
export interface OpenAIResponseMessage {
  role?: string;
  content?: string | null;
  refusal?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: OpenAIToolCall[] | null;
  /** Web search citations (search models). */
  annotations?: OpenAIAnnotation[] | null;
}

/** A non-streamed `chat.completion`. */
export interface OpenAIResponse {
  id?: string;
  model?: string;
  choices: Array<{ index?: number; message: OpenAIResponseMessage; finish_reason: string | null }>;
  usage?: OpenAIUsage | null;
}

/** One streamed `tool_calls[]` fragment: the first of a call has `id` and name. */
export interface OpenAIToolCallFragment {
  /** Position of the call in the answer; a few compatible servers send none (or null). */
  index?: number | null;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: unknown };
}

/** One streamed `chat.completion.chunk` (or an error object some servers send mid-stream). */
export interface OpenAIChunk {
  id?: string;
  model?: string;
  choices?: Array<{
    index?: number;
    delta?: {
      role?: string;
      content?: string | null;
      refusal?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: OpenAIToolCallFragment[] | null;
      annotations?: OpenAIAnnotation[] | null;
    };
    finish_reason?: string | null;
  }>;
  usage?: OpenAIUsage | null;
  error?: { message?: string; type?: string; code?: string | null };
}
