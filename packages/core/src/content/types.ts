/**
 * Provider-neutral message content. The shapes follow the Gemini / ADK wire format (camelCase
 * JSON), so an ADK event serialises to exactly what the official ADKs put on the wire.
 */

/** Raw bytes carried inline, base64-encoded. */
export interface Blob {
  /** IANA media type, e.g. `image/png`. */
  mimeType: string;
  /** Base64-encoded bytes. */
  data: string;
  /** Optional display name (for example the artifact's file name). */
  displayName?: string;
}

/** A reference to bytes stored elsewhere (a URI). */
export interface FileData {
  mimeType?: string;
  fileUri: string;
  displayName?: string;
}

/** A model's request to call a tool. */
export interface FunctionCall {
  /** Id pairing the call with its {@link FunctionResponse}. Always set on events ADK produces. */
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

/** The result of a tool call, sent back to the model. */
export interface FunctionResponse {
  /** Id of the {@link FunctionCall} this answers. */
  id?: string;
  name: string;
  response: Record<string, unknown>;
}

/**
 * One piece of a message. Exactly one of the data members is expected to be set; `thought` marks a
 * text part as the model's reasoning rather than its answer.
 */
export interface Part {
  text?: string;
  /** True when `text` is model reasoning ("thinking"), not part of the answer. */
  thought?: boolean;
  /** Opaque provider signature attached to thoughts or function calls (Gemini 2.5+/3). */
  thoughtSignature?: string;
  inlineData?: Blob;
  fileData?: FileData;
  functionCall?: FunctionCall;
  functionResponse?: FunctionResponse;
  /** Code the provider ran itself (provider-side code execution). */
  executableCode?: ExecutableCode;
  /** The result of {@link Part.executableCode}. */
  codeExecutionResult?: CodeExecutionResult;
}

/** Code a model wrote and its provider ran (Gemini `executableCode`, Anthropic code execution). */
export interface ExecutableCode {
  /** `PYTHON` (Gemini), or the language the provider names. */
  language?: string;
  code: string;
}

/** What running an {@link ExecutableCode} gave. */
export interface CodeExecutionResult {
  /** `OUTCOME_OK`, `OUTCOME_FAILED` or `OUTCOME_DEADLINE_EXCEEDED`. */
  outcome?: string;
  /** Standard output, or the error text when it failed. */
  output?: string;
}

/** Role of a message author, as providers see it. */
export type Role = 'user' | 'model';

/** A message: a role and its parts. */
export interface Content {
  role?: Role | (string & {});
  parts: Part[];
}
