export {
  connectOpenAIRealtime,
  OPENAI_REALTIME_CONNECT_TIMEOUT_MS,
  realtimeURL,
  type OpenAIRealtimeOptions,
  type OpenAIRealtimeSettings,
} from './connect-openai-realtime';
export { OpenAIRealtimeConnection, type RealtimeEndpoint } from './openai-realtime-connection';
export { PcmResampler, pcmRate, REALTIME_PCM_RATE } from './pcm-resampler';
export {
  RealtimeEventMapper,
  REALTIME_OUTPUT_AUDIO_MIME_TYPE,
  toRealtimeUsage,
  type MappedEvent,
} from './realtime-event-mapper';
export type {
  RealtimeClientEvent,
  RealtimeItem,
  RealtimeServerEvent,
  RealtimeSessionConfig,
} from './realtime-wire';
export { toRealtimeItems } from './to-realtime-items';
export { OPENAI_REALTIME_TRANSCRIPTION_MODEL, toRealtimeSession } from './to-realtime-session';
