/**
 * Fake Gemini, Anthropic and OpenAI servers on 127.0.0.1 that speak each provider's real wire
 * format (streaming included) from a provider-neutral script, record what they receive and inject
 * faults. For tests, demos and benchmarks; never for production.
 */
export { anthropicDialect } from './anthropic/anthropic-dialect';
export { startFakeAnthropic } from './anthropic/start-fake-anthropic';
export { startFakeServer, type ProviderDialect } from './fake-server';
export {
  fakeTokenCount,
  type EmbeddingInput,
  type EmbeddingRoute,
} from './embeddings/embedding-route';
export {
  GEMINI_EMBED_BATCH_LIMIT,
  geminiEmbeddingRoute,
} from './embeddings/gemini-embedding-route';
export {
  OPENAI_EMBED_BATCH_LIMIT,
  openaiEmbeddingRoute,
} from './embeddings/openai-embedding-route';
export { readFixture } from './fixtures';
export { geminiDialect } from './gemini/gemini-dialect';
export { startFakeGemini } from './gemini/start-fake-gemini';
export { openaiDialect } from './openai/openai-dialect';
export { startFakeOpenAI } from './openai/start-fake-openai';
export { chunkString, textPieces, writeSse, type OutgoingEvent } from './sse-writer';
export type {
  FakeError,
  FakeProviderServer,
  FakeReply,
  FakeScript,
  FakeServerOptions,
  FakeStreamFaults,
  FakeToolCall,
  FakeUsage,
  RecordedRequest,
} from './types';
export {
  describeAnthropicRequest,
  describeAnthropicTurns,
  describeGeminiRequest,
  describeGeminiTurns,
  describeOpenAIRequest,
  describeOpenAITurns,
  toFakeReply,
  turnProblems,
  type WireTurn,
} from './conformance';
export { startFakeGeminiLive } from './gemini-live/start-fake-gemini-live';
export type {
  FakeGeminiLiveOptions,
  FakeGeminiLiveServer,
  FakeLiveClientMessage,
  FakeLiveConnection,
  FakeLiveFaults,
  FakeLiveTurn,
} from './gemini-live/fake-live-types';
