/** The ADK playground: sample agents, an offline demo model and the server wiring. */
export { createFilesAgent, createReportsAgent, createRouterAgent } from './agents';
export { chooseModel, loadConfig, type ModelChoice, type PlaygroundConfig } from './config';
export { createPlayground, type Playground } from './create-playground';
export {
  DemoModel,
  planDemoResponse,
  resolveModel,
  type DemoModelOptions,
  type DemoPlan,
} from './models';
export { newsTool, publishReportTool, reportFilename, weatherTool, writeReportTool } from './tools';
