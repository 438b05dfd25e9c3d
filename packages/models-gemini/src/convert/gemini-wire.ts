/** Wire shapes of the Gemini API (v1beta), only the members this package reads or writes. */

/** A Gemini `Part`. */
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType?: string; fileUri: string };
  functionCall?: GeminiFunctionCall;
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
  executableCode?: { language?: string; code: string };
  codeExecutionResult?: { outcome?: string; output?: string };
}

/**
 * A Gemini `FunctionCall`. With `toolConfig.functionCallingConfig.streamFunctionCallArguments`
 * (Gemini 3), one call arrives over several streamed chunks: the first has `name` (and `id` on
 * Vertex AI) with `willContinue: true`, the next ones `partialArgs`, and the last one has no
 * `willContinue` (often an empty `functionCall: {}`).
 */
export interface GeminiFunctionCall {
  id?: string;
  name?: string;
  args?: Record<string, unknown>;
  partialArgs?: GeminiPartialArg[];
  /** True when more chunks of this same call follow. */
  willContinue?: boolean;
}

/**
 * One streamed piece of a function call's arguments: the value at `jsonPath` (RFC 9535, e.g.
 * `$.location` or `$.stops[0].city`). A `stringValue` is appended to the string received so far
 * for that path; `willContinue` says more pieces of the same path follow.
 */
export interface GeminiPartialArg {
  jsonPath?: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  /** `NULL_VALUE` (protobuf enum name) or JSON `null` (protobuf JSON mapping). */
  nullValue?: 'NULL_VALUE' | null;
  willContinue?: boolean;
}

/** A Gemini `Content`. */
export interface GeminiContent {
  role?: string;
  parts?: GeminiPart[];
}

/** One candidate of a response. */
export interface GeminiCandidate {
  content?: GeminiContent;
  finishReason?: string;
  finishMessage?: string;
  index?: number;
  safetyRatings?: unknown[];
  citationMetadata?: unknown;
  groundingMetadata?: unknown;
}

/** Token counts of a response. */
export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
}

/** A `GenerateContentResponse` (one whole answer, or one streamed chunk). */
export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string; safetyRatings?: unknown[] };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
}

/** A `generateContent` request body. */
export interface GeminiRequest {
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
  /** Function declarations, and provider-side tools (`googleSearch`, `urlContext`, `codeExecution`). */
  tools?: Array<Record<string, unknown>>;
  toolConfig?: {
    functionCallingConfig: {
      mode?: 'AUTO' | 'ANY' | 'NONE';
      allowedFunctionNames?: string[];
      streamFunctionCallArguments?: boolean;
    };
    /** Gemini 3: built-in tools next to function declarations need it. */
    includeServerSideToolInvocations?: boolean;
  };
  generationConfig?: Record<string, unknown>;
  [key: string]: unknown;
}
