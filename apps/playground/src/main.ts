import { listen } from '@adk/server';
import { ensureWebUiBuilt } from '@adk/web/ensure-built';

import { loadConfig } from './config';
import { createPlayground } from './create-playground';

// From a source checkout, build the web UI first when it is missing or stale (a few seconds).
ensureWebUiBuilt();

const config = loadConfig();
const playground = await createPlayground(config);
const server = await listen(playground.app, { port: config.port, host: config.host });
const store = config.sessionUrl.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

console.log(`ADK playground running at ${server.url}`);
console.log(
  `  model:    ${playground.offline ? 'offline demo model (no API key found)' : playground.model.name}`,
);
console.log(`  sessions: ${store}`);
console.log(
  `  jobs:     ${playground.jobs.description}, ${playground.jobs.worker ? 'run in this process' : 'run by adk worker processes'} (the Jobs tab)`,
);
console.log(
  `  apps:     router (weather + news specialists), reports (artifacts + approval), files (MCP filesystem server in ${config.sandboxDir})`,
);
if (config.a2a) {
  console.log(
    `  A2A:      ${server.url}/a2a/<app> (card: ${server.url}/a2a/router/.well-known/agent-card.json)`,
  );
}

const stop = () => {
  // The worker first: its runs in flight use the runners the server's app closes.
  void playground.jobs
    .close()
    .then(() => server.close())
    .then(() => playground.close())
    .then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
