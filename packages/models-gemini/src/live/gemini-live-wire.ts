import type { GeminiContent, GeminiFunctionCall } from '../convert/gemini-wire';

/**
 * Wire shapes of the Gemini Live API (`BidiGenerateContent`), only the members this package reads
 * or writes. The service sends JSON in binary frames (text frames are accepted too).
 */

/** A transcription piece (`inputTranscription` / `outputTranscription`). */
export interface GeminiLiveTranscription {
  text?: string;
  finished?: boolean;
}

/** `serverContent`: model output and turn signals. */
export interface GeminiLiveServerContent {
  modelTurn?: GeminiContent;
  turnComplete?: boolean;
  interrupted?: boolean;
  generationComplete?: boolean;
  inputTranscription?: GeminiLiveTranscription;
  outputTranscription?: GeminiLiveTranscription;
  groundingMetadata?: unknown;
  turnCompleteReason?: string;
}

/** Token counts of a live turn (`responseTokenCount` where `generateContent` says `candidates`). */
export interface GeminiLiveUsageMetadata {
  promptTokenCount?: number;
  responseTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
}

/** One server message; exactly one of its members is set (usage may come with another). */
export interface GeminiLiveServerMessage {
  setupComplete?: { sessionId?: string };
  serverContent?: GeminiLiveServerContent;
  toolCall?: { functionCalls?: GeminiFunctionCall[] };
  toolCallCancellation?: { ids?: string[] };
  usageMetadata?: GeminiLiveUsageMetadata;
  /** `timeLeft` is a protobuf JSON duration, e.g. `"10s"`. */
  goAway?: { timeLeft?: string };
  sessionResumptionUpdate?: {
    newHandle?: string;
    resumable?: boolean;
    lastConsumedClientMessageIndex?: string;
  };
}

/** The first client message: `BidiGenerateContentSetup`. */
export interface GeminiLiveSetup {
  model: string;
  generationConfig?: Record<string, unknown>;
  systemInstruction?: GeminiContent;
  tools?: Array<{ functionDeclarations: Array<Record<string, unknown>> }>;
  inputAudioTranscription?: Record<string, never>;
  outputAudioTranscription?: Record<string, never>;
  realtimeInputConfig?: Record<string, unknown>;
  sessionResumption?: { handle?: string; transparent?: boolean };
  contextWindowCompression?: Record<string, unknown>;
  proactivity?: { proactiveAudio?: boolean };
}

/** A client message after `setup`. */
export type GeminiLiveClientMessage =
  | { setup: GeminiLiveSetup }
  | { clientContent: { turns?: GeminiContent[]; turnComplete?: boolean } }
  | {
      realtimeInput:
        | { audio: { mimeType: string; data: string } }
        | { video: { mimeType: string; data: string } }
        | { activityStart: Record<string, never> }
        | { activityEnd: Record<string, never> };
    }
  | {
      toolResponse: {
        functionResponses: Array<{ id?: string; name: string; response: Record<string, unknown> }>;
      };
    };
