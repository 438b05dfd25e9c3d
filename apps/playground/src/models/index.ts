export { DemoModel, type DemoModelOptions } from './demo-model';
export { planDemoResponse, type DemoPlan } from './demo-planner';
export { DEMO_LIVE_AUDIO_NOTICE, DemoLiveModel } from './demo-live-model';
export { resolveLiveModel, resolveModel } from './resolve-model';
