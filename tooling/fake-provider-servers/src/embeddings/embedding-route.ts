/** One text an embedding request asks for, with the length the request wants. */
export interface EmbeddingInput {
  text: string;
  dimensions?: number | undefined;
}

/** An embedding request a dialect recognised: what to embed and how to answer. */
export interface EmbeddingRoute {
  model: string;
  inputs: EmbeddingInput[];
  /** A request the real API refuses with 400 (the reason), checked before answering. */
  invalid?: string | undefined;
  /** The provider's JSON answer for these vectors. */
  answer(vectors: number[][]): unknown;
}

/** Rough token count of the fakes' usage figures: words and punctuation runs. */
export function fakeTokenCount(text: string): number {
  return text.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu)?.length ?? 0;
}
