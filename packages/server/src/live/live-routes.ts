import { DEFAULT_LIVE_REQUEST_QUEUE_CAPACITY, type RunConfig } from '@adk/core';
import { Hono } from 'hono';
import type { UpgradeWebSocket, WSEvents } from 'hono/ws';
import type { WebSocket } from 'ws';

import type { ServerContext } from '../app/server-context';
import { LIVE_CLOSE_CODES, LiveSocket } from './live-socket';

type Modality = 'AUDIO' | 'TEXT';

/** Events of a socket refused after the upgrade (as Python ADK: accept, then close with 1002). */
function refuse(reason: string): WSEvents<WebSocket> {
  return { onOpen: (_event, ws) => ws.close(LIVE_CLOSE_CODES.notFound, reason) };
}

/**
 * The response modality of a live run from the `modalities` query parameters (repeated or
 * comma-separated, as the ADK web UI sends them). Providers take one modality: `TEXT` alone
 * gives text; anything else (`AUDIO`, both, none) gives audio, the web UI's voice mode.
 */
export function responseModalitiesOf(values: readonly string[]): Modality[] {
  const modalities = values
    .flatMap((value) => value.split(','))
    .map((value) => value.trim().toUpperCase());
  return modalities.length > 0 && modalities.every((value) => value === 'TEXT')
    ? ['TEXT']
    : ['AUDIO'];
}

/**
 * The switches of the ADK web UI's call panel, sent as query flags (`=true`): proactive audio,
 * affective dialog, session resumption, and saving the live audio as artifacts (only with an
 * artifact service; without one the flag is ignored rather than failing the call).
 */
export function liveFlagsOf(
  query: (name: string) => string | undefined,
  canSaveBlobs: boolean,
): Partial<RunConfig> {
  const on = (name: string) => query(name)?.toLowerCase() === 'true';
  return {
    ...(on('proactive_audio') ? { proactivity: { proactiveAudio: true } } : {}),
    ...(on('enable_affective_dialog') ? { enableAffectiveDialog: true } : {}),
    ...(on('enable_session_resumption') ? { sessionResumption: {} } : {}),
    ...(on('save_live_blob') && canSaveBlobs ? { saveLiveBlob: true } : {}),
  };
}

/**
 * `GET /run_live?app_name=&user_id=&session_id=&modalities=AUDIO` (WebSocket): the live route of
 * the ADK API server. Client frames are Python ADK `LiveRequest` JSON (`content`, `blob`
 * `{ mime_type, data }`, `activity_start`, `activity_end`, `close`); server frames are the run's
 * events as JSON, as `/run_sse` sends them. See the server README for the protocol.
 */
export function liveRoutes(
  ctx: ServerContext,
  upgradeWebSocket: UpgradeWebSocket<WebSocket>,
): Hono {
  const routes = new Hono();
  routes.get(
    '/run_live',
    upgradeWebSocket(async (c) => {
      const appName = c.req.query('app_name') ?? '';
      const userId = c.req.query('user_id') ?? '';
      const sessionId = c.req.query('session_id') ?? '';
      if (!appName || !userId || !sessionId) {
        return refuse('app_name, user_id and session_id are required.');
      }
      if (!ctx.appNames().includes(appName)) return refuse('App not found');
      const app = ctx.app(appName);
      const runLive = app.runner.runLive?.bind(app.runner);
      if (!runLive) return refuse(`App "${appName}" cannot run live.`);
      if (!app.autoCreateSession) {
        const session = await ctx.sessionService.getSession({
          appName,
          userId,
          sessionId,
          numRecentEvents: 0,
        });
        if (!session) return refuse('Session not found');
      }
      const modalities = responseModalitiesOf(c.req.queries('modalities') ?? []);
      const runConfig: Partial<RunConfig> = {
        responseModalities: modalities,
        ...(modalities[0] === 'AUDIO'
          ? { inputAudioTranscription: {}, outputAudioTranscription: {} }
          : {}),
        ...liveFlagsOf(
          (name) => c.req.query(name),
          Boolean((app.runner as { artifactService?: unknown }).artifactService),
        ),
        ...ctx.options.live?.runConfig,
      };
      const socket = new LiveSocket(
        ctx,
        {
          runLive,
          request: { userId, sessionId, runConfig },
          sessionId,
          agentName: app.agent.name,
        },
        ctx.options.live?.queueCapacity ?? DEFAULT_LIVE_REQUEST_QUEUE_CAPACITY,
      );
      return {
        onOpen: (_event, ws) => socket.open(ws),
        onMessage: (event) => socket.message(event.data),
        onClose: () => socket.closed(),
        onError: () => socket.closed(),
      };
    }),
  );
  return routes;
}
