export { createFilesAgent } from './files-agent';
export { createReportsAgent } from './reports-agent';
export { createRouterAgent } from './router-agent';
