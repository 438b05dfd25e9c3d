/** Wire shapes of the Anthropic Messages API, only the members this package reads or writes. */

/** A prompt-caching breakpoint. */
export interface CacheControl {
  type: 'ephemeral';
}

/** A content block of a message (request or answer). */
export type AnthropicContentBlock =
  | { type: 'text'; text: string; citations?: unknown[] | null }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | {
      type: 'tool_result';
      tool_use_id: string;
      content: string | Array<{ type: 'text'; text: string }>;
      is_error?: boolean;
    }
  | { type: 'image'; source: AnthropicSource }
  | { type: 'document'; source: AnthropicSource; title?: string };

/** Where an image or document block takes its bytes from. */
export type AnthropicSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'text'; media_type: 'text/plain'; data: string };

/** One message of the `messages` array. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicContentBlock[];
}

/** A `POST /v1/messages` request body. */
export interface AnthropicRequest {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  system?: string | Array<{ type: 'text'; text: string; cache_control?: CacheControl }>;
  tools?: Array<
    | {
        name: string;
        description?: string;
        input_schema: Record<string, unknown>;
        cache_control?: CacheControl;
      }
    | { type: string; name: string; cache_control?: CacheControl; [key: string]: unknown }
  >;
  tool_choice?: { type: 'auto' | 'any' | 'none' } | { type: 'tool'; name: string };
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  thinking?: { type: 'enabled'; budget_tokens: number };
  stream?: boolean;
  [key: string]: unknown;
}

/** Token counts of an answer. */
export interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** A non-streamed Messages API answer. */
export interface AnthropicResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicContentBlock[];
  stop_reason: string | null;
  stop_sequence?: string | null;
  usage: AnthropicUsage;
}
