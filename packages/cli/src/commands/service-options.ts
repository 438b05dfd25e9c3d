import type { CommandOption } from './command';

/** The service flags `run`, `api_server` and `web` share, named as Python ADK's. */
export const SERVICE_OPTIONS: Record<string, CommandOption> = {
  session_service_uri: {
    type: 'string',
    value: 'URI',
    description: 'Sessions: memory:// (default), sqlite:./sessions.db or postgres://...',
  },
  artifact_service_uri: {
    type: 'string',
    value: 'URI',
    description:
      'Artifacts: file://DIR, memory://, sqlite:FILE or postgres://... (default: files in .adk/artifacts next to the sessions)',
  },
  memory_service_uri: {
    type: 'string',
    value: 'URI',
    description: 'Memory: memory:// (default), sqlite:FILE or postgres://... (full-text search)',
  },
};
