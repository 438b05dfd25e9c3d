import { readFileSync } from 'node:fs';

import { readSession, type TurnOutcome, type TurnTarget } from './sse-turn-client';

interface Part {
  text?: string;
  functionCall?: { name: string; args?: { turn?: string } };
  functionResponse?: { name: string; response?: { recorded?: string } };
}
interface StoredEvent {
  id: string;
  author?: string;
  content?: { parts?: Part[] };
}

/** What the stored sessions and the tool log say about the turns the clients ran. */
export interface Verification {
  /** Acknowledged turns missing their user message, tool call, tool result or answer. */
  lostTurns: string[];
  /** Event ids a client received that are not in the session. */
  lostEvents: number;
  /** Turns whose user message is stored more than once. */
  duplicatedMessages: string[];
  /** Turns whose tool ran more than once (tool log) or whose tool result is stored twice. */
  duplicatedToolRuns: string[];
  /** Turns not acknowledged whose tool ran anyway (the run got that far before it stopped). */
  unacknowledgedToolRuns: number;
  storedEvents: number;
}

/**
 * Check every user's session against what its client saw: each acknowledged turn is stored whole
 * (user message, `record_turn` call and result, `ack` answer) exactly once, every event id a
 * client received is stored, and no turn's tool ran twice (counted from the tool's own log,
 * written by whichever server or worker ran it).
 */
export async function verifySessions(
  users: ReadonlyArray<{ target: TurnTarget; turns: TurnOutcome[] }>,
  toolLog: string,
): Promise<Verification> {
  const toolRuns = new Map<string, number>();
  let log = '';
  try {
    log = readFileSync(toolLog, 'utf8');
  } catch {
    // no tool ran at all
  }
  for (const line of log.split('\n').filter(Boolean)) {
    const turn = line.split('\t')[0]!;
    toolRuns.set(turn, (toolRuns.get(turn) ?? 0) + 1);
  }
  const result: Verification = {
    lostTurns: [],
    lostEvents: 0,
    duplicatedMessages: [],
    duplicatedToolRuns: [],
    unacknowledgedToolRuns: 0,
    storedEvents: 0,
  };
  for (const { target, turns } of users) {
    const events = (await readSession(target)) as StoredEvent[];
    result.storedEvents += events.length;
    const ids = new Set(events.map((event) => event.id));
    const parts = events.flatMap((event) =>
      (event.content?.parts ?? []).map((part) => ({ event, part })),
    );
    for (const outcome of turns) {
      const { turn } = outcome;
      const messages = parts.filter(
        ({ event, part }) => event.author === 'user' && part.text === turn,
      ).length;
      const calls = parts.filter(({ part }) => part.functionCall?.args?.turn === turn).length;
      const results = parts.filter(
        ({ part }) => part.functionResponse?.response?.recorded === turn,
      ).length;
      const answers = parts.filter(({ part }) => part.text === `ack ${turn}`).length;
      if (messages > 1) result.duplicatedMessages.push(turn);
      if ((toolRuns.get(turn) ?? 0) > 1 || results > 1) result.duplicatedToolRuns.push(turn);
      if (outcome.acknowledged) {
        if (messages < 1 || calls < 1 || results < 1 || answers < 1) result.lostTurns.push(turn);
      } else if ((toolRuns.get(turn) ?? 0) > 0) {
        result.unacknowledgedToolRuns++;
      }
      result.lostEvents += outcome.eventIds.filter((id) => !ids.has(id)).length;
    }
  }
  return result;
}
