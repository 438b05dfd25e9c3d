import { appendFileSync } from 'node:fs';

import { FunctionTool, getText, LlmAgent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { z } from 'zod';

/**
 * The agent of the cluster load test: every turn calls `record_turn` once with the user's text (a
 * unique turn id), then answers `ack <turn>`. The tool appends the turn id to the file named by
 * `ADK_CLUSTER_TOOL_LOG` (shared by every server and worker process) so the test counts tool
 * runs outside the sessions: a turn run twice shows up as two lines. A turn resumed on another
 * instance after its own died gets its interrupted call answered with an error (the tool is not
 * idempotent) and answers `ack <turn> (tool interrupted)`.
 */
const recordTurn = new FunctionTool({
  name: 'record_turn',
  description: 'Record that a turn ran',
  parameters: z.object({ turn: z.string() }),
  execute: async ({ turn }) => {
    const log = process.env.ADK_CLUSTER_TOOL_LOG;
    if (log) appendFileSync(log, `${turn}\t${process.pid}\n`);
    // Some work in flight, so that a killed instance has turns running.
    await new Promise((resolve) =>
      setTimeout(resolve, Number(process.env.ADK_CLUSTER_TOOL_MS ?? 40)),
    );
    return { recorded: turn };
  },
});

const model = new FakeModel({
  responses: (request) => {
    const last = request.contents.at(-1);
    const result = last?.parts[0]?.functionResponse;
    if (result) {
      const { recorded } = result.response as { recorded?: string };
      if (recorded !== undefined) return `ack ${recorded}`;
      // A run resumed after its instance died: the call was interrupted (the tool is not
      // idempotent, so it is not run again); its turn id is in the call.
      const call = request.contents.at(-2)?.parts[0]?.functionCall;
      return `ack ${(call?.args as { turn?: string } | undefined)?.turn} (tool interrupted)`;
    }
    return { functionCalls: [{ name: 'record_turn', args: { turn: getText(last) } }] };
  },
});

export const rootAgent = new LlmAgent({
  name: 'cluster_load',
  description: 'Cluster load test agent: one tool call per turn',
  model,
  tools: [recordTurn],
});
