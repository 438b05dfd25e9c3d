/** The ADK playground: sample agents, an offline demo model and the server wiring. */
export {
  createFilesAgent,
  createReportsAgent,
  createRouterAgent,
  createVoiceAgent,
  DEFAULT_LIVE_MODEL,
} from './agents';
export { chooseModel, loadConfig, type ModelChoice, type PlaygroundConfig } from './config';
export { createPlayground, type Playground } from './create-playground';
export {
  DEMO_LIVE_AUDIO_NOTICE,
  DemoLiveModel,
  DemoModel,
  planDemoResponse,
  resolveLiveModel,
  resolveModel,
  type DemoModelOptions,
  type DemoPlan,
} from './models';
export { newsTool, publishReportTool, reportFilename, weatherTool, writeReportTool } from './tools';
