export { DemoModel, type DemoModelOptions } from './demo-model';
export { planDemoResponse, type DemoPlan } from './demo-planner';
export { resolveModel } from './resolve-model';
