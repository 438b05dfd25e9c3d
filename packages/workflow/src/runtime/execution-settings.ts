import type { InvocationContext } from '@adk/core';
import type { z } from 'zod';

import type { NodeContextHost } from './node-context-impl';

/** @internal What one execution needs from its run. */
export interface ExecutionSettings {
  host: NodeContextHost;
  ctx: InvocationContext;
  workflowName: string;
  runId: string;
  signal: AbortSignal;
  resumed: boolean;
  resumeInputs: ReadonlyMap<string, unknown>;
  /** The workflow's `stateSchema`: the state a node writes is checked against it. */
  stateSchema: z.ZodType | undefined;
}
