import { FunctionTool, InMemorySessionService, LlmAgent, Runner } from '@adk/core';
import type { GenerateOptions, LlmRequest, LlmResponse, Model, SessionService } from '@adk/core';
import { z } from 'zod';

import type { FrameworkHarness } from './framework';
import {
  AGENT_NAME,
  APP_NAME,
  CALL_ARGS,
  FINAL_TEXT,
  finishTurn,
  INSTRUCTION,
  MODEL_NAME,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  lastContentHasFunctionResponse,
  weatherFor,
} from './script';

/**
 * Zero-latency scripted model for ADK for TypeScript, written against the public `Model` contract
 * (not `FakeModel`, which records every request and would grow the heap during the benchmark).
 */
class ScriptedModel implements Model {
  readonly name = MODEL_NAME;

  async *generate(
    request: LlmRequest,
    _options: GenerateOptions,
  ): AsyncGenerator<LlmResponse, void> {
    if (lastContentHasFunctionResponse(request.contents)) {
      yield { content: { role: 'model', parts: [{ text: FINAL_TEXT }] }, turnComplete: true };
    } else {
      yield {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: TOOL_NAME, args: { ...CALL_ARGS } } }],
        },
        turnComplete: true,
      };
    }
  }
}

/**
 * Build our side: `LlmAgent` + `FunctionTool` + `Runner` + `InMemorySessionService` (or the
 * session service given, for the SQL runner-turn benchmark).
 */
export async function createAdkTsHarness(
  sessionService: SessionService = new InMemorySessionService(),
): Promise<FrameworkHarness> {
  let toolCalls = 0;
  const tool = new FunctionTool({
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    parameters: z.object({ city: z.string() }),
    execute: ({ city }: { city: string }) => {
      toolCalls++;
      return weatherFor(city);
    },
  });
  const agent = new LlmAgent({
    name: AGENT_NAME,
    model: new ScriptedModel(),
    instruction: INSTRUCTION,
    tools: [tool],
  });
  const runner = new Runner({ appName: APP_NAME, agent, sessionService });

  return {
    id: 'adk-ts',
    get toolCalls() {
      return toolCalls;
    },
    async createSession(userId, sessionId) {
      await sessionService.createSession({ appName: APP_NAME, userId, sessionId });
    },
    async deleteSession(userId, sessionId) {
      await sessionService.deleteSession({ appName: APP_NAME, userId, sessionId });
    },
    runTurn(userId, sessionId, text) {
      return finishTurn(
        'adk-ts',
        runner.run({ userId, sessionId, newMessage: { role: 'user', parts: [{ text }] } }),
      );
    },
    async close() {
      await runner.close();
    },
  };
}
