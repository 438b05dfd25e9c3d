import type { Event, InvocationContext, StoredNodeError } from '@adk/core';
import type { z } from 'zod';

import { AgentNode, type NestedRunResult } from '../nodes/agent-node';
import type { BaseNode } from '../nodes/base-node';
import { recordEvent } from './record-events';

/** @internal How a run's scheduling ended, for its end record. */
export interface RunEndState {
  ctx: InvocationContext;
  workflowName: string;
  runId: string;
  outputSchema: z.ZodType | undefined;
  /** The unhandled node failure that ended the run, if any. */
  failure: StoredNodeError | undefined;
  /** Calls the run waits on. */
  waiting: string[];
  awaitingMessage: boolean;
  /** The latest output of each terminal node that produced one (Python's terminal outputs). */
  terminalOutputs: ReadonlyMap<string, { node: BaseNode; output: unknown }>;
  /** The outermost workflow reports a failure in an error event (a nested one passes it on). */
  outermost: boolean;
}

/**
 * @internal The run's end: a pause (no record), or the end record with the output of the one
 * terminal node that produced one, as in Python (several are an error). A failure is reported
 * once: by the error event of the outermost workflow's end record.
 */
export async function* endRun(state: RunEndState): AsyncGenerator<Event, NestedRunResult> {
  const { ctx, workflowName, runId } = state;
  if (ctx.signal.aborted) {
    return {
      status: 'failed',
      errorCode: 'WORKFLOW_ABORTED',
      errorMessage: 'The run was aborted.',
    };
  }
  const end = (status: 'completed' | 'failed', output?: unknown) =>
    ({ kind: 'end', workflow: workflowName, run: runId, status, output }) as const;
  let failure = state.failure;
  if (!failure && (state.waiting.length > 0 || state.awaitingMessage)) {
    return { status: 'paused', requestIds: state.waiting, awaitsMessage: state.awaitingMessage };
  }
  if (!failure && state.terminalOutputs.size > 1) {
    const names = [...state.terminalOutputs.keys()];
    failure = {
      name: 'WorkflowOutputError',
      code: 'WORKFLOW_MULTIPLE_TERMINAL_OUTPUTS',
      message: `Workflow "${workflowName}": several terminal nodes produced output (${names.join(', ')}); a workflow has at most one terminal output.`,
      attempts: 1,
    };
  }
  const [result] = state.terminalOutputs.values();
  let output = result?.output;
  if (!failure && state.outputSchema) {
    const parsed = state.outputSchema.safeParse(output);
    if (parsed.success) output = parsed.data;
    else {
      failure = {
        name: 'NodeDataError',
        code: 'WORKFLOW_NODE_OUTPUT_INVALID',
        message: `Output of workflow "${workflowName}" does not match its outputSchema: ${parsed.error.message}`,
        attempts: 1,
      };
    }
  }
  if (failure) {
    yield recordEvent(
      ctx,
      workflowName,
      end('failed'),
      state.outermost ? { errorCode: failure.code, errorMessage: failure.message } : undefined,
    );
    return { status: 'failed', errorCode: failure.code, errorMessage: failure.message, failure };
  }
  // The outermost workflow states its output as text, unless an agent already said it.
  const text =
    state.outermost && output !== undefined && !(result?.node instanceof AgentNode)
      ? typeof output === 'string'
        ? output
        : JSON.stringify(output)
      : undefined;
  yield recordEvent(ctx, workflowName, end('completed', output), { text });
  return { status: 'completed', output };
}
