import { AdkError, newSpanId, type StoredNodeError } from '@adk/core';

import { nodesObserved, publishNodeEnd, publishNodeStart } from '../diagnostics/channels';
import { NodeDataError } from '../errors/node-data-error';
import { NodeFailedError } from '../errors/node-failed-error';
import { NodeInterruptedError } from '../errors/node-interrupted-error';
import { ERROR_ROUTE } from '../graph/constants';
import { maxAttemptsOf, retriesError, retryDelay } from '../nodes/retry';
import { attemptFailedEvent } from './attempt-record';
import { nodeCredential } from './node-auth';
import { sleep, withTimeout } from './node-timing';
import { checkStateDelta } from './state-schema';
import { NodeContextImpl } from './node-context-impl';
import type { ExecutionSettings } from './execution-settings';
import type { Execution, Outcome } from './outcome';

export type { ExecutionSettings } from './execution-settings';

interface Span {
  spanId: string;
  startTime: number;
}

const isPromise = (value: unknown): value is Promise<unknown> =>
  value !== null &&
  typeof value === 'object' &&
  typeof (value as Promise<unknown>).then === 'function';

/**
 * @internal Run one execution of a node: input and output validated, the node's attempts with
 * retry and backoff, each attempt under its timeout, its span published. A node that answers
 * synchronously on its first attempt settles synchronously (no promise per node).
 */
export function executeNode(
  exec: Execution,
  settings: ExecutionSettings,
): Outcome | Promise<Outcome> {
  const span = nodesObserved() ? startSpan(exec, settings) : undefined;
  try {
    const first = attemptNode(exec, settings, 1);
    if (!isPromise(first)) return endSpan(span, settings, first, undefined);
    return first.then(
      (outcome) => endSpan(span, settings, outcome, undefined),
      (error: unknown) => retry(exec, settings, span, error),
    );
  } catch (error) {
    return retry(exec, settings, span, error);
  }
}

async function retry(
  exec: Execution,
  settings: ExecutionSettings,
  span: Span | undefined,
  firstError: unknown,
): Promise<Outcome> {
  const { node } = exec;
  const maxAttempts = maxAttemptsOf(node.retry);
  let error = firstError;
  for (let attempt = 1; ; attempt++) {
    if (NodeInterruptedError.isInstance(error)) {
      return endSpan(span, settings, interrupted([...error.requestIds], false, attempt), undefined);
    }
    const retryable =
      attempt < maxAttempts &&
      !settings.signal.aborted &&
      !(NodeDataError.isInstance(error) && error.direction === 'input') &&
      retriesError(node.retry, error);
    if (!retryable) return endSpan(span, settings, failed(node.name, error, attempt), error);
    const delay = retryDelay(node.retry ?? {}, attempt);
    // Each failed attempt is recorded (Python emits an error event per attempt), then retried.
    await settings.host.emit(
      attemptFailedEvent(settings.ctx, {
        kind: 'attempt-failed',
        workflow: settings.workflowName,
        run: settings.runId,
        path: exec.path,
        node: node.name,
        attempt,
        error: storedError(node.name, error, attempt),
        retryInMs: Math.round(delay),
      }),
    );
    await sleep(delay, settings.signal);
    if (settings.signal.aborted)
      return endSpan(span, settings, failed(node.name, error, attempt), error);
    try {
      return endSpan(span, settings, await attemptNode(exec, settings, attempt + 1), undefined);
    } catch (next) {
      error = next;
    }
  }
}

function startSpan(exec: Execution, settings: ExecutionSettings): Span {
  const span = { spanId: newSpanId(), startTime: performance.now() };
  const { ctx } = settings;
  publishNodeStart(() => ({
    spanId: span.spanId,
    parentSpanId: ctx.spanId,
    invocationId: ctx.invocationId,
    appName: ctx.appName,
    userId: ctx.userId,
    sessionId: ctx.sessionId,
    startTime: span.startTime,
    workflowName: settings.workflowName,
    nodeName: exec.node.name,
    path: exec.path,
  }));
  return span;
}

function endSpan(
  span: Span | undefined,
  settings: ExecutionSettings,
  outcome: Outcome,
  error: unknown,
): Outcome {
  if (!span) return outcome;
  publishNodeEnd(() => ({
    spanId: span.spanId,
    invocationId: settings.ctx.invocationId,
    durationMs: performance.now() - span.startTime,
    outcome: outcome.kind === 'interrupt' ? 'interrupted' : outcome.error ? 'failed' : 'output',
    route: outcome.kind === 'output' ? outcome.routes : [],
    retryCount: outcome.attempts - 1,
    ...(outcome.kind === 'output' && outcome.error ? { error } : {}),
  }));
  return outcome;
}

function attemptNode(
  exec: Execution,
  settings: ExecutionSettings,
  attempt: number,
): Outcome | Promise<Outcome> {
  const { node } = exec;
  const timeout = node.timeoutMs === undefined ? undefined : new AbortController();
  const signal = timeout ? AbortSignal.any([settings.signal, timeout.signal]) : settings.signal;
  const nodeCtx = new NodeContextImpl(
    settings.host,
    settings.ctx,
    node.name,
    exec.path,
    attempt,
    settings.resumed,
    exec.fromUser,
    signal,
    settings.resumeInputs,
  );
  let input = node.takeInput(exec.input);
  if (node.inputSchema) {
    const parsed = node.inputSchema.safeParse(input);
    if (!parsed.success) {
      throw new NodeDataError({
        nodeName: node.name,
        direction: 'input',
        message: `Input of node "${node.name}" does not match its inputSchema: ${parsed.error.message}`,
        cause: parsed.error,
      });
    }
    input = parsed.data;
  }
  const { authConfig } = node;
  if (authConfig) {
    // The credential first (core's credential flow); without one the node waits for it.
    return nodeCredential(authConfig, exec, settings, nodeCtx).then((credential) => {
      if (!credential) return finishAttempt(exec, settings, nodeCtx, undefined, attempt);
      nodeCtx.credential = credential;
      return runAttempt(exec, settings, nodeCtx, input, timeout, attempt);
    });
  }
  return runAttempt(exec, settings, nodeCtx, input, timeout, attempt);
}

function runAttempt(
  exec: Execution,
  settings: ExecutionSettings,
  nodeCtx: NodeContextImpl,
  input: unknown,
  timeout: AbortController | undefined,
  attempt: number,
): Outcome | Promise<Outcome> {
  const { node } = exec;
  if (timeout && node.timeoutMs !== undefined) {
    return withTimeout(node.run(input, nodeCtx), nodeCtx, timeout, node.timeoutMs).then((output) =>
      finishAttempt(exec, settings, nodeCtx, output, attempt),
    );
  }
  const output = node.run(input, nodeCtx);
  if (isPromise(output)) {
    return output.then((value) => finishAttempt(exec, settings, nodeCtx, value, attempt));
  }
  return finishAttempt(exec, settings, nodeCtx, output, attempt);
}

function finishAttempt(
  exec: Execution,
  settings: ExecutionSettings,
  nodeCtx: NodeContextImpl,
  value: unknown,
  attempt: number,
): Outcome {
  const { node } = exec;
  if (nodeCtx.requests.length > 0 || nodeCtx.waitingOn.length > 0 || nodeCtx.awaitingMessage) {
    const requests = nodeCtx.requests.map((request, index) => ({
      ...request,
      id: request.id ?? `${settings.runId}/${exec.path}/${index}`,
    }));
    return {
      kind: 'interrupt',
      requests,
      requestIds: [...requests.map((request) => request.id), ...nodeCtx.waitingOn],
      own: nodeCtx.waitingOn.length === 0 && !nodeCtx.awaitingMessage,
      awaitsMessage: nodeCtx.awaitingMessage,
      routes: routesOf(nodeCtx.route),
      attempts: attempt,
      actions: nodeCtx.usedActions,
      stored: false,
    };
  }
  let output = value;
  if (node.outputSchema) {
    const parsed = node.outputSchema.safeParse(output);
    if (!parsed.success) {
      throw new NodeDataError({
        nodeName: node.name,
        direction: 'output',
        message: `Output of node "${node.name}" does not match its outputSchema: ${parsed.error.message}`,
        cause: parsed.error,
      });
    }
    output = parsed.data;
  }
  const actions = nodeCtx.usedActions;
  if (settings.stateSchema && actions) {
    checkStateDelta(settings.stateSchema, node.name, actions.stateDelta);
  }
  return {
    kind: 'output',
    output,
    routes: routesOf(nodeCtx.route),
    attempts: attempt,
    actions: nodeCtx.usedActions,
    error: undefined,
    stored: false,
  };
}

const NO_ROUTES: readonly string[] = Object.freeze([]);

function routesOf(route: string | readonly string[] | undefined): readonly string[] {
  return route === undefined ? NO_ROUTES : typeof route === 'string' ? [route] : [...route];
}

function interrupted(requestIds: string[], own: boolean, attempts: number): Outcome {
  return {
    kind: 'interrupt',
    requests: [],
    requestIds,
    own,
    awaitsMessage: false,
    routes: NO_ROUTES,
    attempts,
    actions: undefined,
    stored: false,
  };
}

/** The stored form of a node's failure. */
export function storedError(nodeName: string, error: unknown, attempts: number): StoredNodeError {
  // A failure passed on from a dynamic node or a nested workflow is recorded as it was stored.
  if (NodeFailedError.isInstance(error) && error.failure) return error.failure;
  const causeCode = NodeFailedError.isInstance(error)
    ? error.causeCode
    : AdkError.isInstance(error)
      ? error.code
      : undefined;
  return {
    name: error instanceof Error ? error.name : 'Error',
    code: 'WORKFLOW_NODE_FAILED',
    message: `Node "${nodeName}" failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${
      error instanceof Error ? error.message : String(error)
    }`,
    ...(causeCode === undefined ? {} : { causeCode }),
    attempts,
  };
}

function failed(nodeName: string, error: unknown, attempts: number): Outcome {
  return {
    kind: 'output',
    output: undefined,
    routes: [ERROR_ROUTE],
    attempts,
    actions: undefined,
    error: storedError(nodeName, error, attempts),
    stored: false,
  };
}
