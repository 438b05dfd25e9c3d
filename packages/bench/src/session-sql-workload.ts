/**
 * The workload of the SQL session store benchmark, identical for both frameworks: one turn of a
 * tool-using agent is three events (user message, model function call, tool response), each with
 * a session state key, and every tenth event also writes an `app:` and a `user:` key.
 */

/** A framework-neutral event, turned into each framework's own event by its adapter. */
export interface WorkloadEvent {
  author: string;
  content: { role: string; parts: Record<string, unknown>[] };
  stateDelta: Record<string, unknown>;
}

/** The `index`-th event of the workload. */
export function workloadEvent(index: number): WorkloadEvent {
  const stateDelta: Record<string, unknown> = { turn: index, last_city: `city-${index % 17}` };
  if (index % 10 === 0) {
    stateDelta[`app:calls`] = index;
    stateDelta[`user:last_seen`] = index;
  }
  switch (index % 3) {
    case 0:
      return {
        author: 'user',
        content: { role: 'user', parts: [{ text: `What is the weather in city-${index % 17}?` }] },
        stateDelta,
      };
    case 1:
      return {
        author: 'weather_agent',
        content: {
          role: 'model',
          parts: [
            {
              functionCall: {
                id: `fc-${index}`,
                name: 'get_weather',
                args: { city: `city-${index % 17}`, unit: 'metric' },
              },
            },
          ],
        },
        stateDelta,
      };
    default:
      return {
        author: 'weather_agent',
        content: {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: `fc-${index - 1}`,
                name: 'get_weather',
                response: { tempC: 21, sky: 'clear', windKmh: 12 },
              },
            },
          ],
        },
        stateDelta,
      };
  }
}

/** The operations the benchmark times, implemented once per framework. */
export interface SessionStoreUnderTest {
  readonly name: string;
  /** Create a session and return a handle to append through. */
  createSession(sessionId: string): Promise<unknown>;
  /** Append one workload event through the handle (the single-writer path of a runner). */
  append(session: unknown, event: WorkloadEvent): Promise<void>;
  /** Read the whole session back; returns how many events it holds. */
  get(sessionId: string): Promise<number>;
  /**
   * How durable a commit is, as the database reports it on the store's own connection (SQLite:
   * journal mode and `synchronous`; PostgreSQL: `synchronous_commit`), e.g. `wal, synchronous=full`.
   */
  durability(): Promise<string>;
  close(): Promise<void>;
}
