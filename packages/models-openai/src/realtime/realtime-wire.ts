/**
 * The parts of the OpenAI Realtime API (GA, `session.type: "realtime"`) wire format this package
 * sends and reads. Field names are the API's. Server events carry more fields than listed.
 */

/** A conversation item as sent in `conversation.item.create`. */
export type RealtimeItem =
  | {
      type: 'message';
      role: 'user' | 'assistant' | 'system';
      content: RealtimeContentPart[];
    }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string };

/** One content part of a message item. */
export type RealtimeContentPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_audio'; audio: string }
  | { type: 'input_image'; image_url: string }
  | { type: 'output_text'; text: string };

/** The session object of `session.update`. */
export interface RealtimeSessionConfig {
  type: 'realtime';
  model?: string;
  instructions?: string;
  output_modalities?: Array<'audio' | 'text'>;
  audio?: {
    input?: {
      format?: { type: 'audio/pcm'; rate: 24000 };
      transcription?: { model?: string; language?: string } | null;
      turn_detection?: RealtimeTurnDetection | null;
    };
    output?: { format?: { type: 'audio/pcm'; rate: 24000 }; voice?: string };
  };
  tools?: Array<{ type: 'function'; name: string; description?: string; parameters: unknown }>;
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; name: string };
  max_output_tokens?: number | 'inf';
  truncation?:
    | 'auto'
    | 'disabled'
    | {
        type: 'retention_ratio';
        retention_ratio: number;
        token_limits?: { post_instructions?: number };
      };
  [key: string]: unknown;
}

/** Voice activity detection of the input audio. */
export interface RealtimeTurnDetection {
  type: 'server_vad' | 'semantic_vad';
  threshold?: number;
  prefix_padding_ms?: number;
  silence_duration_ms?: number;
  create_response?: boolean;
  interrupt_response?: boolean;
  [key: string]: unknown;
}

/** A client event. */
export type RealtimeClientEvent =
  | { type: 'session.update'; session: RealtimeSessionConfig }
  | { type: 'input_audio_buffer.append'; audio: string }
  | { type: 'input_audio_buffer.commit' }
  | { type: 'input_audio_buffer.clear' }
  | { type: 'conversation.item.create'; item: RealtimeItem }
  | {
      type: 'conversation.item.truncate';
      item_id: string;
      content_index: number;
      audio_end_ms: number;
    }
  | { type: 'response.create' }
  | { type: 'response.cancel' };

/** The error object of an `error` event. */
export interface RealtimeErrorBody {
  type?: string;
  code?: string | null;
  message?: string;
  param?: string | null;
}

/** Token usage of `response.done`. */
export interface RealtimeUsage {
  total_tokens?: number;
  input_tokens?: number;
  output_tokens?: number;
  input_token_details?: { cached_tokens?: number };
}

/** The response object of `response.created` / `response.done`. */
export interface RealtimeResponseObject {
  id?: string;
  status?: 'completed' | 'cancelled' | 'failed' | 'incomplete' | 'in_progress';
  status_details?: {
    type?: string;
    reason?: string;
    error?: { type?: string; code?: string } | null;
  } | null;
  output?: Array<{ type?: string; call_id?: string }>;
  usage?: RealtimeUsage | null;
}

/** A server event, with the fields read by this package (all optional: frames are checked). */
export interface RealtimeServerEvent {
  type: string;
  event_id?: string;
  response_id?: string;
  item_id?: string;
  content_index?: number;
  delta?: string;
  text?: string;
  transcript?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
  response?: RealtimeResponseObject;
  error?: RealtimeErrorBody;
  session?: Record<string, unknown>;
}
