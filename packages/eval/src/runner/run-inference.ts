import { randomUUID } from 'node:crypto';

import { InvalidArgumentError, type Event, type Session } from '@adk/core';

import { EvalInferenceError } from '../errors/eval-inference-error';
import type { EvalCase, Invocation } from '../schema';
import type { EvalTarget } from './eval-target';
import { invocationFromEvents } from './invocation-from-events';
import type { InvocationModelCalls, ModelCallLog } from './model-call-log';
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
  options: {
    userSimulator?: UserSimulator;
    signal?: AbortSignal;
    /** Records each turn's model calls (cost, failures); a failed call fails the case. */
    modelCalls?: ModelCallLog;
    /** Session id to use when the case names none (default: a random `___eval___session___` id). */
    sessionId?: string;
    /** Delete a session already stored under `sessionId` (a previous run's) rather than continue it. */
    freshSession?: boolean;
  } = {},
): Promise<InferenceResult> {
  const userId = evalCase.sessionInput?.userId ?? DEFAULT_EVAL_USER_ID;
  const sessionId =
    evalCase.sessionInput?.sessionId ??
    options.sessionId ??
    `${EVAL_SESSION_ID_PREFIX}${randomUUID()}`;
  options.modelCalls?.watch(target.appName, sessionId);
  try {
    return await infer(target, evalCase, userId, sessionId, options);
  } finally {
    options.modelCalls?.forget(target.appName, sessionId);
  }
}

const costs = new WeakMap<Invocation, InvocationModelCalls & { wallMs: number }>();

/**
 * What the model calls of an invocation produced by an eval run cost (calls, time, tokens), and
 * the turn's wall-clock time; `undefined` for an invocation not produced by a run in this process
 * (an expected one, one read from a file). The efficiency metrics read it.
 */
export function invocationCost(
  invocation: Invocation,
): (InvocationModelCalls & { wallMs: number }) | undefined {
  return costs.get(invocation);
}

async function infer(
  target: EvalTarget,
  evalCase: EvalCase,
  userId: string,
  sessionId: string,
  options: {
    userSimulator?: UserSimulator;
    signal?: AbortSignal;
    modelCalls?: ModelCallLog;
    freshSession?: boolean;
  },
): Promise<InferenceResult> {
  let existing = await target.sessionService.getSession({
    appName: target.appName,
    userId,
    sessionId,
  });
  if (existing && options.freshSession && evalCase.sessionInput?.sessionId === undefined) {
    await target.sessionService.deleteSession({ appName: target.appName, userId, sessionId });
    existing = undefined;
  }
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
    const started = performance.now();
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
    const invocation = invocationFromEvents(userContent as never, events);
    const calls = options.modelCalls?.invocation(
      target.appName,
      sessionId,
      invocation.invocationId,
    );
    // A model call that threw and ended the turn on an error event: the run has no answer to grade.
    const failure = calls?.failures.at(-1);
    if (failure && events.some((event) => event.errorCode !== undefined)) {
      throw new EvalInferenceError({ failureCode: failure.code, message: failure.message });
    }
    if (calls) costs.set(invocation, { ...calls, wallMs: performance.now() - started });
    invocations.push(invocation);
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
