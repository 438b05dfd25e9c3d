/**
 * What one of our turns keeps alive while it waits, for profiling (not part of `pnpm bench`):
 * `node --expose-gc --conditions=source --import tsx src/inflight.ts <1|2> [snapshot path]`.
 *
 * 1,000 turns of the benchmark agent (one tool call) are started at once on sessions that already
 * hold one turn, and all of them park in model call 1 (or 2) on a gate. The heap then, after full
 * collections, less the heap before they started, divided by 1,000, is what an in-flight turn
 * keeps alive: in the concurrency scenario, every young collection copies that much per turn in
 * flight. With a path, heap snapshots are written before (`<path>.before`) and while parked.
 */
import { FunctionTool, InMemorySessionService, LlmAgent, Runner } from '@adk/core';
import type { LlmRequest, LlmResponse, Model } from '@adk/core';
import { writeHeapSnapshot } from 'node:v8';
import { z } from 'zod';

import {
  AGENT_NAME,
  APP_NAME,
  FINAL_TEXT,
  INSTRUCTION,
  MODEL_NAME,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  finishTurn,
  lastContentHasFunctionResponse,
  weatherFor,
} from './frameworks/script';

const TURNS = 1000;
const gateAt = Number(process.argv[2] ?? 1);
const snapshotPath = process.argv[3];
let gate: Promise<void> = Promise.resolve();

/** The scripted model of the benchmark, waiting on `gate` in call `gateAt`. */
class GatedModel implements Model {
  readonly name = MODEL_NAME;
  async *generate(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const second = lastContentHasFunctionResponse(request.contents);
    if ((second ? 2 : 1) === gateAt) await gate;
    yield second
      ? { content: { role: 'model', parts: [{ text: FINAL_TEXT }] }, turnComplete: true }
      : {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: TOOL_NAME, args: { city: 'Paris' } } }],
          },
          turnComplete: true,
        };
  }
}

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
}

async function main(): Promise<void> {
  const tool = new FunctionTool({
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    parameters: z.object({ city: z.string() }),
    execute: ({ city }: { city: string }) => weatherFor(city),
  });
  const agent = new LlmAgent({
    name: AGENT_NAME,
    model: new GatedModel(),
    instruction: INSTRUCTION,
    tools: [tool],
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService });
  const turn = (userId: string, sessionId: string) =>
    finishTurn(
      'adk-ts',
      runner.run({
        userId,
        sessionId,
        newMessage: { role: 'user', parts: [{ text: 'weather?' }] },
      }),
    );
  // Warm-up, then the sessions, each with one turn already (as turn 2 of the concurrency scenario).
  for (let i = 0; i < 200; i++) {
    await sessionService.createSession({ appName: APP_NAME, userId: 'w', sessionId: `w${i}` });
    await turn('w', `w${i}`);
  }
  for (let i = 0; i < TURNS; i++) {
    await sessionService.createSession({ appName: APP_NAME, userId: 'u', sessionId: `s${i}` });
    await turn('u', `s${i}`);
  }
  let open!: () => void;
  gate = new Promise((resolve) => (open = resolve));
  collect();
  const before = process.memoryUsage().heapUsed;
  if (snapshotPath) writeHeapSnapshot(`${snapshotPath}.before`);
  const turns = Array.from({ length: TURNS }, (_, i) => turn('u', `s${i}`));
  // Long enough for every turn to reach the gate (each needs a few dozen microtasks).
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
  collect();
  const during = process.memoryUsage().heapUsed;
  console.log(
    JSON.stringify({ parkedInModelCall: gateAt, liveBytesPerTurn: (during - before) / TURNS }),
  );
  if (snapshotPath) writeHeapSnapshot(snapshotPath);
  open();
  await Promise.all(turns);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
