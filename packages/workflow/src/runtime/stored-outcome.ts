import type { Execution, Outcome } from './outcome';
import type { Event, InvocationContext, StoredWorkflowRun } from '@adk/core';

/**
 * @internal What the stored run says about `exec`: its stored outcome (a successful output, or a
 * pause not answered by this message), the answer as its output (a node that does not run again
 * on resume), or that it must run (`resumed` when an answer arrived for it: a function response
 * carried by this invocation's message, or the message itself, stored after a pause that waits
 * for one).
 */
export function storedOutcome(
  exec: Execution,
  stored: StoredWorkflowRun | undefined,
  replies: ReadonlyMap<string, unknown>,
  messageIndex: number,
): { kind: 'outcome'; outcome: Outcome } | { kind: 'run'; resumed: boolean } {
  if (!stored) return { kind: 'run', resumed: false };
  const output = stored.outputs.get(exec.path);
  // A failure an error route took is replayed as that failure (the run went on from it).
  if (output && (!output.error || output.handled)) {
    return {
      kind: 'outcome',
      outcome: {
        kind: 'output',
        output: output.output,
        routes: routesOf(output.route),
        attempts: output.attempts,
        actions: undefined,
        error: output.error,
        stored: true,
      },
    };
  }
  const pause = stored.interrupts.get(exec.path);
  if (!pause) return { kind: 'run', resumed: false };
  // A plain message stored after the pause is its answer (-1: no plain message).
  if (pause.awaitsMessage && messageIndex > (stored.interruptIndex.get(exec.path) ?? Infinity))
    return { kind: 'run', resumed: true };
  const answered = pause.requestIds.filter((id) => replies.has(id));
  if (answered.length === 0) {
    return {
      kind: 'outcome',
      outcome: {
        kind: 'interrupt',
        requests: [],
        requestIds: pause.requestIds,
        own: pause.own,
        awaitsMessage: pause.awaitsMessage === true,
        routes: routesOf(pause.route),
        attempts: 1,
        actions: undefined,
        stored: true,
      },
    };
  }
  if (!exec.node.rerunOnResume && pause.own) {
    const value =
      pause.requestIds.length === 1
        ? replies.get(pause.requestIds[0] as string)
        : Object.fromEntries(answered.map((id) => [id, replies.get(id)]));
    return {
      kind: 'outcome',
      outcome: {
        kind: 'output',
        output: value,
        // The route the node set before it asked is taken with its answer.
        routes: routesOf(pause.route),
        attempts: 1,
        actions: undefined,
        error: undefined,
        stored: false,
      },
    };
  }
  return { kind: 'run', resumed: true };
}

function routesOf(route: string | undefined): string[] {
  return route === undefined ? [] : route.split(',');
}

/** @internal Index of the latest user message of `ctx`'s invocation in its session, or -1. */
export function userMessageIndex(ctx: InvocationContext): number {
  const events = ctx.session.events;
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    if (event.author === 'user' && event.invocationId === ctx.invocationId && !event.branch)
      return index;
  }
  return -1;
}

/**
 * @internal The run id of a node's first execution in `stored`: 1 (as Python counts), or 0 for
 * a run stored by an earlier version, whose graph executions (paths without `/`) end in `@0`.
 */
export function firstRunIdOf(stored: StoredWorkflowRun): number {
  for (const path of [...stored.outputs.keys(), ...stored.interrupts.keys()]) {
    if (!path.includes('/') && path.endsWith('@0')) return 0;
  }
  return 1;
}
