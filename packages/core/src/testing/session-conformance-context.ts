import { randomUUID } from 'node:crypto';

import { beforeEach } from 'vitest';

import { createEvent, type Event, type EventInit } from '../events';
import type { Session, SessionService } from '../sessions';

/** What every conformance test gets: a service and names no other test uses. */
export interface ConformanceContext {
  readonly service: SessionService;
  /** A fresh app name per test, so a shared service (or database) needs no cleanup. */
  readonly appName: string;
  /** Create a session of `userId` (default `u1`) in this test's app. */
  session(options?: {
    userId?: string;
    sessionId?: string;
    state?: Record<string, unknown>;
  }): Promise<Session>;
  /** Get a session of this test's app, failing the test when it is missing. */
  reload(
    session: Pick<Session, 'id' | 'userId'>,
    window?: { numRecentEvents?: number; afterTimestamp?: number },
  ): Promise<Session>;
}

/** Registers a `beforeEach` that prepares the context, and returns it. */
export function useConformanceContext(
  makeService: () => Promise<SessionService> | SessionService,
): ConformanceContext {
  let service: SessionService | undefined;
  let appName = '';
  beforeEach(async () => {
    service = await makeService();
    appName = `conformance-${randomUUID().slice(0, 8)}`;
  });
  const context: ConformanceContext = {
    get service(): SessionService {
      if (!service) throw new TypeError('The conformance context is used outside a test.');
      return service;
    },
    get appName(): string {
      return appName;
    },
    session: (options = {}) =>
      context.service.createSession({
        appName,
        userId: options.userId ?? 'u1',
        ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
        ...(options.state === undefined ? {} : { state: options.state }),
      }),
    reload: async (session, window = {}) => {
      const found = await context.service.getSession({
        appName,
        userId: session.userId,
        sessionId: session.id,
        ...window,
      });
      if (!found) throw new TypeError(`Session ${session.id} vanished.`);
      return found;
    },
  };
  return context;
}

/** An event authored by `author` (default `agent`) with the given state delta. */
export function deltaEvent(
  stateDelta: Record<string, unknown>,
  init: Partial<EventInit> = {},
): Event {
  return createEvent({
    invocationId: 'inv-1',
    author: 'agent',
    ...init,
    actions: { stateDelta, ...init.actions },
  });
}

/** Run `action` and return what it threw (fails the test when it does not throw). */
export async function caught(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new TypeError('Expected the call to throw.');
}
