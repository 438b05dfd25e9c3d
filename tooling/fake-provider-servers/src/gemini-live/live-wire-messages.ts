import type { FakeUsage } from '../types';

/** Server message bodies of the Gemini Live API (`BidiGenerateContentServerMessage`). */
export type LiveServerMessage = Record<string, unknown>;

/** Splits text into pieces of about two words (keeping the spaces), as the service streams it. */
export function wordPieces(text: string): string[] {
  const words = text.match(/\S+\s*/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += 2) pieces.push(words.slice(i, i + 2).join(''));
  return pieces.length > 0 ? pieces : [text];
}

/** A protobuf JSON duration (`"5s"`, `"0.25s"`) of a number of milliseconds. */
export function toDuration(ms: number): string {
  return `${ms / 1000}s`;
}

/** Deterministic 16-bit PCM bytes of chunk `index` (a quiet ramp; never all zeros). */
export function pcmChunk(index: number, bytes: number): string {
  const buffer = Buffer.alloc(bytes);
  for (let i = 0; i + 1 < bytes; i += 2) buffer.writeInt16LE(((i + index * 31) % 512) - 256, i);
  return buffer.toString('base64');
}

/** `usageMetadata` of a turn, in the Live API's names (`responseTokenCount`, token details). */
export function liveUsage(usage: FakeUsage): LiveServerMessage {
  const body: LiveServerMessage = {
    promptTokenCount: usage.inputTokens,
    responseTokenCount: usage.outputTokens,
    totalTokenCount: usage.inputTokens + usage.outputTokens + (usage.thoughtsTokens ?? 0),
    promptTokensDetails: [{ modality: 'AUDIO', tokenCount: usage.inputTokens }],
    responseTokensDetails: [{ modality: 'AUDIO', tokenCount: usage.outputTokens }],
  };
  if (usage.thoughtsTokens !== undefined) body.thoughtsTokenCount = usage.thoughtsTokens;
  if (usage.cachedTokens !== undefined) body.cachedContentTokenCount = usage.cachedTokens;
  return body;
}

/** The model's name in a Gemini API or Vertex AI `setup.model`, or undefined when malformed. */
export function setupModelProblem(
  model: unknown,
  backend: 'gemini' | 'vertex',
): string | undefined {
  if (typeof model !== 'string' || model.length === 0) return 'setup.model is required';
  if (backend === 'gemini' && !/^models\/[^/]+$/.test(model)) {
    return `setup.model must be "models/{model}" on the Gemini API, got "${model}"`;
  }
  if (
    backend === 'vertex' &&
    !/^(projects\/[^/]+\/locations\/[^/]+\/)?publishers\/google\/models\/[^/]+$/.test(model)
  ) {
    return `setup.model must be "projects/{p}/locations/{l}/publishers/google/models/{model}" on Vertex AI, got "${model}"`;
  }
  return undefined;
}
