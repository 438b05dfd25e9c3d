import { openArtifactStore, openMemoryStore } from '../services';
import { openSessionStore } from '../session-store';
import { UsageError } from '../errors';
import { stringOption, type CommandModule } from './command';
import { SERVICE_OPTIONS } from './service-options';

/** Run the store's `migrate()` (SQL stores have one; memory and file stores have nothing to do). */
async function migrateStore(service: object): Promise<void> {
  const migrate = (service as { migrate?: unknown }).migrate;
  if (typeof migrate === 'function') await (migrate as () => Promise<void>).call(service);
}

/**
 * `adk migrate`: create or upgrade the tables of the SQL stores named by the service flags, then
 * exit. Servers and workers migrate on start too; a deployment runs this once first so that
 * replicas starting together do not race on the schema.
 */
export const migrateCommandModule: CommandModule = {
  name: 'migrate',
  args: '[options]',
  summary: 'Create or upgrade the session, artifact and memory tables of SQL stores, then exit.',
  options: SERVICE_OPTIONS,
  run: async ({ values }) => {
    const sessions = stringOption(values, 'session_service_uri');
    const artifacts = stringOption(values, 'artifact_service_uri');
    const memory = stringOption(values, 'memory_service_uri');
    if (!sessions && !artifacts && !memory) {
      throw new UsageError(
        'adk migrate needs at least one of --session_service_uri, --artifact_service_uri, --memory_service_uri',
      );
    }
    if (sessions) {
      const store = await openSessionStore(sessions);
      try {
        await migrateStore(store.service);
      } finally {
        await store.close();
      }
      process.stdout.write(`sessions: ${store.description}: up to date\n`);
    }
    if (artifacts) {
      const store = await openArtifactStore(artifacts, '.adk/artifacts');
      try {
        await migrateStore(store.service);
      } finally {
        await store.close();
      }
      process.stdout.write(`artifacts: ${store.description}: up to date\n`);
    }
    if (memory) {
      const store = await openMemoryStore(memory);
      try {
        await migrateStore(store.service);
      } finally {
        await store.close();
      }
      process.stdout.write(`memory: ${store.description}: up to date\n`);
    }
    return 0;
  },
};
