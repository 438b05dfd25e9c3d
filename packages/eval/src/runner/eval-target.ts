import {
  InMemorySessionService,
  Runner,
  type BaseAgent,
  type Content,
  type Event,
  type RunnerServices,
  type SessionService,
} from '@adk/core';

/** One turn of the app under evaluation. */
export interface EvalTurnRequest {
  userId: string;
  sessionId: string;
  newMessage: Content;
  signal?: AbortSignal;
}

/**
 * What an eval runs: an app name, the session service its sessions live in, and one turn at a
 * time. {@link evalTargetFromAgent} builds one from an agent; a server passes its own runner.
 */
export interface EvalTarget {
  readonly appName: string;
  readonly sessionService: SessionService;
  run(request: EvalTurnRequest): AsyncIterable<Event>;
}

/**
 * An {@link EvalTarget} running `agent` with a core `Runner` over an in-memory session service
 * (or the one given).
 */
export function evalTargetFromAgent(
  agent: BaseAgent,
  options: {
    appName?: string;
    sessionService?: SessionService;
    runner?: Omit<RunnerServices, 'sessionService'>;
  } = {},
): EvalTarget {
  const sessionService = options.sessionService ?? new InMemorySessionService();
  const appName = options.appName ?? agent.name;
  const runner = new Runner({ ...options.runner, appName, agent, sessionService });
  return {
    appName,
    sessionService,
    run: (request) =>
      runner.run({
        userId: request.userId,
        sessionId: request.sessionId,
        newMessage: request.newMessage,
        ...(request.signal ? { signal: request.signal } : {}),
      }),
  };
}
