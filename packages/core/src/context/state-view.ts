import type { ReadonlyState, State } from './types';

/** Where a state view reads committed state from: the live session, updated as events commit. */
export interface StateSource {
  readonly state: Record<string, unknown>;
}

const EMPTY: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/**
 * Read-only view of session state: the pending delta (when given) first, then the session's
 * committed state (which includes `app:`, `user:` and this invocation's `temp:` keys).
 *
 * Values are returned as stored, not copied: change state with `set` on a writable context, never by
 * mutating a returned object.
 */
export class ReadonlyStateView implements ReadonlyState {
  constructor(
    protected readonly source: StateSource,
    protected readonly delta: Record<string, unknown> = EMPTY,
  ) {}

  get<T = unknown>(key: string): T | undefined {
    if (Object.hasOwn(this.delta, key)) return this.delta[key] as T;
    return this.source.state[key] as T | undefined;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.delta, key) || Object.hasOwn(this.source.state, key);
  }

  toRecord(): Record<string, unknown> {
    return { ...this.source.state, ...this.delta };
  }
}

/**
 * Writable state view: reads like {@link ReadonlyStateView}, and every write goes to the delta
 * (an event's `actions.stateDelta`), which the session service applies when the event is
 * committed. State never changes any other way.
 */
export class DeltaState extends ReadonlyStateView implements State {
  constructor(source: StateSource, delta: Record<string, unknown>) {
    super(source, delta);
  }

  set(key: string, value: unknown): void {
    this.delta[key] = value;
  }

  update(values: Record<string, unknown>): void {
    for (const key of Object.keys(values)) this.delta[key] = values[key];
  }
}
