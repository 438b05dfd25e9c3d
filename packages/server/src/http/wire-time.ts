import type { Event, Session } from '@adk/core';

/**
 * Unit of `timestamp` and `lastUpdateTime` on the wire. `milliseconds` is what `@adk/core` stores
 * (as `@google/adk` for TypeScript); `seconds` is what the Python server sends and what the ADK web
 * UI expects when it formats dates.
 */
export type TimestampUnit = 'milliseconds' | 'seconds';

/** Converts timestamps between storage (milliseconds) and the wire. */
export class WireTime {
  constructor(readonly unit: TimestampUnit = 'milliseconds') {}

  event(event: Event): Event {
    return this.unit === 'seconds' ? { ...event, timestamp: event.timestamp / 1000 } : event;
  }

  session(session: Session): Session {
    if (this.unit === 'milliseconds') return session;
    return {
      ...session,
      lastUpdateTime: session.lastUpdateTime / 1000,
      events: session.events.map((e) => this.event(e)),
    };
  }

  /** A timestamp received from a client, in milliseconds. */
  incoming(timestamp: number): number {
    return this.unit === 'seconds' ? Math.round(timestamp * 1000) : timestamp;
  }
}
