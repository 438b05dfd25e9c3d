import { FunctionTool, InMemorySessionService, LlmAgent, Runner } from '@adk/core';
import type { GenerateOptions, LlmRequest, LlmResponse, Model } from '@adk/core';
import { z } from 'zod';

import type { FrameworkHarness } from './framework';
import {
  AGENT_NAME,
  APP_NAME,
  CALL_ARGS,
  FINAL_TEXT,
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

/** Build our side: `LlmAgent` + `FunctionTool` + `Runner` + `InMemorySessionService`. */
export async function createAdkTsHarness(): Promise<FrameworkHarness> {
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
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService });

  return {
    id: 'adk-ts',
    get toolCalls() {
      return toolCalls;
    },
    async createSession(userId, sessionId) {
      await sessionService.createSession({ appName: APP_NAME, userId, sessionId });
    },
    async runTurn(userId, sessionId, text) {
      let finalText = '';
      for await (const event of runner.run({
        userId,
        sessionId,
        newMessage: { role: 'user', parts: [{ text }] },
      })) {
        if (event.errorCode !== undefined)
          throw new Error(`adk-ts turn failed: ${event.errorMessage}`);
        const part = event.content?.parts?.[0];
        if (part?.text !== undefined) finalText = part.text;
      }
      if (finalText !== FINAL_TEXT)
        throw new Error(`adk-ts turn ended without the scripted answer`);
      return finalText;
    },
    async close() {
      await runner.close();
    },
  };
}
