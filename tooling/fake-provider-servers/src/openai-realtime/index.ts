export { startFakeOpenAIRealtime } from './start-fake-openai-realtime';
export type {
  FakeRealtimeCall,
  FakeRealtimeOptions,
  FakeRealtimeResponse,
  FakeRealtimeServer,
  RecordedRealtimeConnection,
} from './realtime-script';
