import type { FrameworkHarness } from './framework';
import {
  CALL_ARGS,
  FINAL_TEXT,
  finishTurn,
  INSTRUCTION,
  TOOL_NAME,
  lastContentHasFunctionResponse,
  weatherFor,
  type TurnEvent,
} from './script';

/** A message as the floor keeps it: the same shape as the frameworks' contents. */
interface FloorContent {
  role: 'user' | 'model';
  parts: Array<Record<string, unknown>>;
}

/** One appended event: what any framework must at least record per step. */
interface FloorEvent {
  id: string;
  author: string;
  timestamp: number;
  content: FloorContent;
}

/** The request the floor hands its model: instruction, one tool declaration, the history. */
interface FloorRequest {
  systemInstruction: string;
  tools: readonly string[];
  contents: FloorContent[];
}

/** The same zero-latency scripted model as the frameworks get: an async generator of responses. */
async function* scriptedModel(request: FloorRequest): AsyncGenerator<FloorContent, void> {
  if (lastContentHasFunctionResponse(request.contents)) {
    yield { role: 'model', parts: [{ text: FINAL_TEXT }] };
  } else {
    yield { role: 'model', parts: [{ functionCall: { name: TOOL_NAME, args: { ...CALL_ARGS } } }] };
  }
}

const TOOLS: readonly string[] = [TOOL_NAME];

/**
 * The ideal floor: a hand-written loop doing what a turn of the benchmark needs and nothing more.
 * It appends the user message, calls the scripted model with the history, runs the tool, appends
 * the call and its response, calls the model again and appends the answer, yielding each event to
 * the caller as the frameworks do. No validation, no copies, no hooks, no telemetry: the figure a
 * framework's own CPU and memory per turn are divided by.
 */
export async function createFloorHarness(): Promise<FrameworkHarness> {
  let toolCalls = 0;
  let nextId = 0;

  function append(events: FloorEvent[], author: string, content: FloorContent): FloorEvent {
    const event: FloorEvent = { id: `e${nextId++}`, author, timestamp: Date.now(), content };
    events.push(event);
    return event;
  }

  async function* turn(events: FloorEvent[], text: string) {
    yield append(events, 'user', { role: 'user', parts: [{ text }] });
    for (;;) {
      const request: FloorRequest = {
        systemInstruction: INSTRUCTION,
        tools: TOOLS,
        contents: events.map((event) => event.content),
      };
      let call: { name: string; args: { city: string } } | undefined;
      for await (const content of scriptedModel(request)) {
        yield append(events, 'weather_agent', content);
        call = content.parts[0]?.functionCall as typeof call;
      }
      if (call === undefined) return;
      toolCalls++;
      const response = weatherFor(call.args.city);
      yield append(events, 'weather_agent', {
        role: 'user',
        parts: [{ functionResponse: { name: call.name, response } }],
      });
    }
  }

  return loopHarness('floor', turn, () => toolCalls);
}

/**
 * The harness around a hand-written turn loop (both floors): each session is the array of its
 * events, kept in a map, and `turn` appends to it and yields what it appended.
 */
export function loopHarness<E>(
  id: 'floor' | 'contract-floor',
  turn: (events: E[], text: string) => AsyncIterable<E & TurnEvent>,
  toolCalls: () => number,
): FrameworkHarness {
  const sessions = new Map<string, E[]>();
  return {
    id,
    get toolCalls() {
      return toolCalls();
    },
    deleteSession(userId, sessionId) {
      sessions.delete(`${userId}/${sessionId}`);
      return Promise.resolve();
    },
    createSession(userId, sessionId) {
      sessions.set(`${userId}/${sessionId}`, []);
      return Promise.resolve();
    },
    runTurn(userId, sessionId, text) {
      const events = sessions.get(`${userId}/${sessionId}`);
      if (events === undefined) throw new Error(`${id}: no session ${sessionId}`);
      return finishTurn(id, turn(events, text));
    },
    close() {
      sessions.clear();
      return Promise.resolve();
    },
  };
}
