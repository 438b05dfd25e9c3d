import type { AdkEvent, Session } from './api/types';

/** What the page shows; panels read it and subscribe to its changes. */
export interface UiState {
  app: string;
  user: string;
  /** The open session's id ('' before the first message of a new one). */
  sessionId: string;
  /** The open session as last loaded (events included). */
  session: Session | undefined;
  /** The event the inspector, graph and trace show. */
  selectedEventId: string | undefined;
  /** The running turn, if any. */
  running: AbortController | undefined;
}

/** `state`: the open session's state changed during a turn (its events are already in `session`). */
type Topic = 'app' | 'session' | 'select' | 'running' | 'state';

/** A tiny observable store: `set` merges and tells the subscribers of each changed topic. */
export class Store {
  readonly state: UiState = {
    app: '',
    user: 'user',
    sessionId: '',
    session: undefined,
    selectedEventId: undefined,
    running: undefined,
  };
  /**
   * Set by an open voice run: takes the composer's text instead of a turn (`true` when taken).
   * Kept here so that the chat needs no import of the voice module, which imports the chat.
   */
  takeText: ((text: string) => boolean) | undefined;
  readonly #listeners = new Map<Topic, Set<() => void>>();

  on(topic: Topic, listener: () => void): void {
    const set = this.#listeners.get(topic) ?? new Set();
    set.add(listener);
    this.#listeners.set(topic, set);
  }

  emit(topic: Topic): void {
    for (const listener of this.#listeners.get(topic) ?? []) listener();
  }

  /** The base path of the current app and user. */
  get userPath(): string {
    return `/apps/${encodeURIComponent(this.state.app)}/users/${encodeURIComponent(this.state.user || 'user')}`;
  }

  /** The path of the open session. */
  get sessionPath(): string {
    return `${this.userPath}/sessions/${encodeURIComponent(this.state.sessionId)}`;
  }

  /** The selected event of the open session, if any. */
  get selectedEvent(): AdkEvent | undefined {
    const id = this.state.selectedEventId;
    return id ? this.state.session?.events.find((event) => event.id === id) : undefined;
  }

  select(eventId: string | undefined): void {
    this.state.selectedEventId = eventId;
    this.emit('select');
  }
}

/** The page's one store. */
export const store = new Store();
