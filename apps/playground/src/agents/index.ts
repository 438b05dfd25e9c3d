export { createFilesAgent } from './files-agent';
export { createReportsAgent } from './reports-agent';
export { createRouterAgent } from './router-agent';
export { createVoiceAgent, DEFAULT_LIVE_MODEL } from './voice-agent';
