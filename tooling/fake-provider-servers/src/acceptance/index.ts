export {
  EXPECTED_WEATHER_EVENTS,
  runWeatherAgent,
  WEATHER_SCRIPT,
  type NormalisedEvent,
  type WeatherRun,
} from './weather-scenario';
export {
  weatherAgentAcceptance,
  type WeatherAgentAcceptanceOptions,
} from './weather-agent-acceptance';
export { ask, collect, collectUntilError } from './model-calls';
export {
  outputSchemaAcceptance,
  WEATHER_REPORT_SCHEMA,
  type OutputSchemaAcceptanceOptions,
} from './output-schema-acceptance';
export { PARALLEL_TOOL_CALLS, parallelToolCallsAcceptance } from './parallel-tool-calls-acceptance';
export {
  historyTurnsAcceptance,
  type HistoryTurnsAcceptanceOptions,
} from './history-turns-acceptance';
export {
  promptPrefixAcceptance,
  type PromptPrefixAcceptanceOptions,
} from './prompt-prefix-acceptance';
export {
  runAgent,
  THINKING_SCRIPT,
  thinkingAcceptance,
  WEB_SEARCH_REPLY,
  webSearchAcceptance,
  type ReachAcceptanceOptions,
} from './reach-acceptance';
export {
  cosine,
  embeddingFixture,
  embeddingModelAcceptance,
  type EmbeddingAcceptanceTarget,
} from './embedding-model-acceptance';
