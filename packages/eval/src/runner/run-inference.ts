import { randomUUID } from 'node:crypto';

import { InvalidArgumentError, type Event, type Session } from '@adk/core';

import type { EvalCase, Invocation } from '../schema';
import type { EvalTarget } from './eval-target';
import { invocationFromEvents } from './invocation-from-events';
import type { UserSimulator } from './user-simulator';

/** Python's default user id of eval sessions. */
export const DEFAULT_EVAL_USER_ID = 'test_user_id';
/** Python's prefix of eval session ids. */
export const EVAL_SESSION_ID_PREFIX = '___eval___session___';

/** What running one eval case against the agent produced. */
export interface InferenceResult {
  sessionId: string;
  userId: string;
  invocations: Invocation[];
  session: Session | undefined;
}

/**
 * Run one eval case: create its session (the case's `sessionInput` state, a fresh
 * `___eval___session___` id), then replay each recorded user turn in order, or let `userSimulator`
 * drive a conversation scenario. Returns the invocations the agent produced.
 */
export async function runInference(
  target: EvalTarget,
  evalCase: EvalCase,
  options: { userSimulator?: UserSimulator; signal?: AbortSignal } = {},
): Promise<InferenceResult> {
  const userId = evalCase.sessionInput?.userId ?? DEFAULT_EVAL_USER_ID;
  const sessionId = evalCase.sessionInput?.sessionId ?? `${EVAL_SESSION_ID_PREFIX}${randomUUID()}`;
  const existing = await target.sessionService.getSession({
    appName: target.appName,
    userId,
    sessionId,
  });
  if (!existing) {
    await target.sessionService.createSession({
      appName: target.appName,
      userId,
      sessionId,
      state: { ...(evalCase.sessionInput?.state ?? {}) },
    });
  }
  const invocations: Invocation[] = [];
  const turn = async (userContent: Invocation['userContent']) => {
    const events: Event[] = [];
    for await (const event of target.run({
      userId,
      sessionId,
      newMessage: { role: 'user', ...userContent } as Parameters<
        EvalTarget['run']
      >[0]['newMessage'],
      ...(options.signal ? { signal: options.signal } : {}),
    })) {
      events.push(event);
    }
    invocations.push(invocationFromEvents(userContent as never, events));
  };
  if (evalCase.conversation) {
    for (const expected of evalCase.conversation) await turn(expected.userContent);
  } else if (evalCase.conversationScenario) {
    const simulator = options.userSimulator;
    if (!simulator) {
      throw new InvalidArgumentError({
        message: `Eval case "${evalCase.evalId}" is a conversation scenario: pass a userSimulator to run it.`,
        argument: 'userSimulator',
      });
    }
    for (;;) {
      const step = await simulator.next(evalCase.conversationScenario, invocations, options.signal);
      if (step.status === 'stop') break;
      await turn(step.content);
    }
  }
  const session = await target.sessionService.getSession({
    appName: target.appName,
    userId,
    sessionId,
  });
  return { sessionId, userId, invocations, session };
}
