import { AdkError, newSpanId, type InvocationContext } from '@adk/core';

import { publishNodeEnd, publishNodeStart } from '../diagnostics/channels';
import { NodeDataError } from '../errors/node-data-error';
import { NodeFailedError } from '../errors/node-failed-error';
import { NodeInterruptedError } from '../errors/node-interrupted-error';
import { NodeTimeoutError } from '../errors/node-timeout-error';
import { retryDelay } from '../nodes/retry';
import { ERROR_ROUTE } from '../graph/constants';
import { NodeContextImpl, type NodeContextHost } from './node-context-impl';
import type { Execution, Outcome } from './outcome';
import type { StoredNodeError } from './records';

/** @internal What one execution needs from its run. */
export interface ExecutionSettings {
  host: NodeContextHost;
  ctx: InvocationContext;
  workflowName: string;
  runId: string;
  signal: AbortSignal;
  resumed: boolean;
  resumeInputs: ReadonlyMap<string, unknown>;
}

/**
 * @internal Run one execution of a node: input and output validated, the node's attempts with
 * retry and backoff, each attempt under its timeout, its span published.
 */
export async function executeNode(exec: Execution, settings: ExecutionSettings): Promise<Outcome> {
  const { node } = exec;
  const maxAttempts = Math.max(1, node.retry?.maxAttempts ?? 1);
  const spanId = newSpanId();
  const startTime = performance.now();
  const { ctx } = settings;
  publishNodeStart(() => ({
    spanId,
    parentSpanId: ctx.spanId,
    invocationId: ctx.invocationId,
    appName: ctx.appName,
    userId: ctx.userId,
    sessionId: ctx.sessionId,
    startTime,
    workflowName: settings.workflowName,
    nodeName: node.name,
    path: exec.path,
  }));
  let outcome: Outcome | undefined;
  let lastError: unknown;
  for (let attempt = 1; outcome === undefined; attempt++) {
    try {
      outcome = await attemptNode(exec, settings, attempt);
    } catch (error) {
      if (NodeInterruptedError.isInstance(error)) {
        outcome = interrupted([...error.requestIds], false, attempt);
        break;
      }
      lastError = error;
      const retryable =
        attempt < maxAttempts &&
        !settings.signal.aborted &&
        !(NodeDataError.isInstance(error) && error.direction === 'input') &&
        (node.retry?.retryOn?.(error) ?? true);
      if (!retryable) {
        outcome = failed(node.name, error, attempt);
        break;
      }
      await sleep(retryDelay(node.retry ?? {}, attempt), settings.signal);
    }
  }
  publishNodeEnd(() => ({
    spanId,
    invocationId: ctx.invocationId,
    durationMs: performance.now() - startTime,
    outcome:
      outcome.kind === 'interrupt' ? 'interrupted' : outcome.error ? 'failed' : 'output',
    route: outcome.kind === 'output' ? outcome.routes : [],
    retryCount: outcome.attempts - 1,
    ...(outcome.kind === 'output' && outcome.error ? { error: lastError } : {}),
  }));
  return outcome;
}

async function attemptNode(
  exec: Execution,
  settings: ExecutionSettings,
  attempt: number,
): Promise<Outcome> {
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
  let input = exec.input;
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
  let output: unknown;
  if (timeout && node.timeoutMs !== undefined) {
    const timeoutMs = node.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        nodeCtx.closed = true;
        timeout.abort();
        reject(new NodeTimeoutError({ nodeName: node.name, timeoutMs }));
      }, timeoutMs);
    });
    try {
      output = await Promise.race([Promise.resolve().then(() => node.run(input, nodeCtx)), expired]);
    } finally {
      clearTimeout(timer);
    }
  } else {
    output = await node.run(input, nodeCtx);
  }
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
      attempts: attempt,
      actions: nodeCtx.actions,
      stored: false,
    };
  }
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
  const route = nodeCtx.route;
  return {
    kind: 'output',
    output,
    routes: route === undefined ? [] : typeof route === 'string' ? [route] : [...route],
    attempts: attempt,
    actions: nodeCtx.actions,
    error: undefined,
    stored: false,
  };
}

function interrupted(requestIds: string[], own: boolean, attempts: number): Outcome {
  return {
    kind: 'interrupt',
    requests: [],
    requestIds,
    own,
    awaitsMessage: false,
    attempts,
    actions: undefined,
    stored: false,
  };
}

/** The stored form of a node's failure. */
export function storedError(nodeName: string, error: unknown, attempts: number): StoredNodeError {
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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
