/** The live-run members of `LlmResponse` (see `LiveConnection`). */

/** A transcription of audio (input: what the user said; output: what the model said). */
export interface Transcription {
  /** The text of this chunk (providers stream transcriptions in pieces). */
  text?: string;
  /** `true` on the chunk that ends one utterance. */
  finished?: boolean;
}

/** A new session resumption handle from the provider. */
export interface LiveSessionResumptionUpdate {
  /** Pass it as `sessionResumption.handle` to continue after a dropped connection. */
  newHandle?: string;
  /** Whether the session can be resumed at this point. */
  resumable?: boolean;
}

/** The provider will close the connection soon. */
export interface LiveGoAway {
  /** Milliseconds left before the server closes the connection, when known. */
  timeLeftMs?: number;
}
