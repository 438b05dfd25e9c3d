/** What one user saw of one turn. */
export interface TurnOutcome {
  turn: string;
  /** The final answer `ack <turn>` arrived: the turn is acknowledged. */
  acknowledged: boolean;
  /** How the turn ended when not acknowledged (an error code), or `undefined`. */
  endedWith?: string;
  /** HTTP requests made for it (first post, reconnects, session reads, retries). */
  requests: number;
  /** Reconnects with `Last-Event-ID`. */
  resumes: number;
  /** Streams that broke (network error, 502, end without an answer). */
  breaks: number;
  /** 503 answers (a draining instance refused the run) that were retried. */
  refused: number;
  /** Ids of the stored events the client received. */
  eventIds: string[];
  latencyMs: number;
  /** When the turn ended (`performance.now()` of this process). */
  endedAt: number;
  /** Through a background job rather than `/run_sse`. */
  viaJob: boolean;
}

/** Where a user's turns go. */
export interface TurnTarget {
  baseUrl: string;
  app: string;
  user: string;
  session: string;
}

interface SseFrame {
  id?: string;
  data: string;
}

/** Parse SSE frames out of a byte stream; yields as they complete. Throws when the stream breaks. */
async function* readFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<SseFrame> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const frame: SseFrame = { data: '' };
      for (const line of block.split('\n')) {
        if (line.startsWith('id:')) frame.id = line.slice(3).trim();
        else if (line.startsWith('data:')) frame.data += line.slice(5).trimStart();
      }
      if (frame.data) yield frame;
    }
  }
}

interface StoredEvent {
  id: string;
  author?: string;
  content?: { parts?: Array<{ text?: string }> };
}

/** The session's events, read through the load balancer. */
export async function readSession(target: TurnTarget): Promise<StoredEvent[]> {
  const url = `${target.baseUrl}/apps/${target.app}/users/${target.user}/sessions/${target.session}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(url);
      if (response.ok) return ((await response.json()) as { events: StoredEvent[] }).events;
      if (attempt > 20) throw new Error(`GET session: ${response.status} ${await response.text()}`);
    } catch (error) {
      if (attempt > 20) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const textOf = (event: StoredEvent) =>
  event.content?.parts?.map((part) => part.text ?? '').join('') ?? '';

/**
 * Run one turn over `/run_sse` as a careful client does: on a broken stream, reconnect (through
 * the load balancer, so to any instance) with `Last-Event-ID`; when the stream broke before any
 * stored event arrived, read the session to learn whether the message was stored (then resume
 * from it) or not (then post it again), so a message is never stored twice.
 */
export async function runSseTurn(target: TurnTarget, turn: string): Promise<TurnOutcome> {
  const started = performance.now();
  const outcome: TurnOutcome = {
    turn,
    acknowledged: false,
    requests: 0,
    resumes: 0,
    breaks: 0,
    refused: 0,
    eventIds: [],
    latencyMs: 0,
    endedAt: 0,
    viaJob: false,
  };
  const body = JSON.stringify({
    app_name: target.app,
    user_id: target.user,
    session_id: target.session,
    new_message: { role: 'user', parts: [{ text: turn }] },
    streaming: false,
  });
  let lastId: string | undefined;
  for (let attempt = 0; attempt < 50 && !outcome.acknowledged && !outcome.endedWith; attempt++) {
    if (attempt > 0 && !lastId) {
      // Nothing received: was the message stored before the stream broke?
      outcome.requests++;
      const stored = (await readSession(target)).find(
        (event) => event.author === 'user' && textOf(event) === turn,
      );
      if (stored) lastId = stored.id;
    }
    if (lastId) outcome.resumes += attempt > 0 ? 1 : 0;
    outcome.requests++;
    let response: Response;
    try {
      response = await fetch(`${target.baseUrl}/run_sse`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(lastId ? { 'last-event-id': lastId } : {}),
        },
        body,
      });
    } catch {
      outcome.breaks++;
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    if (response.status === 503) {
      outcome.refused++;
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    if (!response.ok || !response.body) {
      outcome.breaks++;
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      for await (const frame of readFrames(response.body)) {
        const data = JSON.parse(frame.data) as { errorCode?: string; error?: string } & StoredEvent;
        if (frame.id) {
          lastId = frame.id;
          outcome.eventIds.push(frame.id);
        }
        if (data.errorCode || data.error) {
          // SERVER_SHUTTING_DOWN: the run was stopped on a draining instance; its stored events
          // stay, so read on from the last one. Anything else ends the turn.
          if (data.errorCode === 'SERVER_SHUTTING_DOWN') break;
          outcome.endedWith = data.errorCode ?? data.error;
          break;
        }
        if (frame.id && textOf(data) === `ack ${turn}`) outcome.acknowledged = true;
        // Resumed elsewhere after its instance died, its tool call interrupted: ended, typed.
        if (frame.id && textOf(data) === `ack ${turn} (tool interrupted)`)
          outcome.endedWith = 'TOOL_INTERRUPTED';
      }
      if (!outcome.acknowledged && !outcome.endedWith) outcome.breaks++;
    } catch {
      outcome.breaks++;
    }
  }
  if (!outcome.acknowledged && !outcome.endedWith) outcome.endedWith = 'GAVE_UP';
  outcome.endedAt = performance.now();
  outcome.latencyMs = outcome.endedAt - started;
  return outcome;
}

interface JobJson {
  id: string;
  state: string;
  result?: { finalText?: string };
  lastError?: unknown;
}

/**
 * Run one turn as a background job (run by an `adk worker`): enqueue through the load balancer,
 * then poll the job on whatever instance answers until it completes. A failed enqueue is retried
 * only after the job list shows it was not stored.
 */
export async function runJobTurn(target: TurnTarget, turn: string): Promise<TurnOutcome> {
  const started = performance.now();
  const outcome: TurnOutcome = {
    turn,
    acknowledged: false,
    requests: 0,
    resumes: 0,
    breaks: 0,
    refused: 0,
    eventIds: [],
    latencyMs: 0,
    endedAt: 0,
    viaJob: true,
  };
  const jobsUrl = `${target.baseUrl}/apps/${target.app}/users/${target.user}/jobs`;
  let job: JobJson | undefined;
  for (let attempt = 0; attempt < 50 && !job; attempt++) {
    outcome.requests++;
    try {
      const response = await fetch(jobsUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          new_message: { role: 'user', parts: [{ text: turn }] },
          session_id: target.session,
        }),
      });
      if (response.status === 201) {
        job = (await response.json()) as JobJson;
        break;
      }
      if (response.status === 503) outcome.refused++;
      else outcome.breaks++;
      await response.body?.cancel();
    } catch {
      outcome.breaks++;
    }
    // Was it stored anyway (the answer was lost)?
    outcome.requests++;
    try {
      const listed = await fetch(jobsUrl);
      if (listed.ok)
        job = ((await listed.json()) as JobJson[]).find((each) =>
          JSON.stringify(each).includes(turn),
        );
    } catch {
      // retried below
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  for (let polls = 0; job && polls < 2000; polls++) {
    if (job.state === 'completed') {
      outcome.acknowledged = job.result?.finalText === `ack ${turn}`;
      if (!outcome.acknowledged)
        outcome.endedWith = `UNEXPECTED_RESULT ${JSON.stringify(job.result)}`;
      break;
    }
    if (job.state === 'dead' || job.state === 'cancelled') {
      outcome.endedWith = `JOB_${job.state.toUpperCase()}`;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    outcome.requests++;
    try {
      const response = await fetch(`${jobsUrl}/${job.id}`);
      if (response.ok) job = (await response.json()) as JobJson;
      else await response.body?.cancel();
    } catch {
      outcome.breaks++;
    }
  }
  if (!outcome.acknowledged && !outcome.endedWith) outcome.endedWith = 'GAVE_UP';
  outcome.endedAt = performance.now();
  outcome.latencyMs = outcome.endedAt - started;
  return outcome;
}
