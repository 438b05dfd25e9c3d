import {
  BaseLlm,
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  LogLevel,
  Runner,
  setLogLevel,
} from '@google/adk';
import type { BaseLlmConnection, LlmRequest, LlmResponse } from '@google/adk';
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

/** Zero-latency scripted model for `@google/adk`: the documented way, a `BaseLlm` subclass. */
class ScriptedLlm extends BaseLlm {
  constructor() {
    super({ model: MODEL_NAME });
  }

  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
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

  override connect(): Promise<BaseLlmConnection> {
    throw new Error('live mode is not benchmarked');
  }
}

/** Build the `@google/adk` 2.0.0 side: `LlmAgent` + `FunctionTool` + `Runner` + in-memory sessions. */
export async function createGoogleAdkHarness(): Promise<FrameworkHarness> {
  // The default logger writes INFO lines through winston; keep only errors so logging is not measured.
  setLogLevel(LogLevel.ERROR);
  let toolCalls = 0;
  const tool = new FunctionTool({
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      toolCalls++;
      return weatherFor(city);
    },
  });
  const agent = new LlmAgent({
    name: AGENT_NAME,
    model: new ScriptedLlm(),
    instruction: INSTRUCTION,
    tools: [tool],
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService });

  return {
    id: 'google-adk',
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
        'google-adk',
        runner.runAsync({ userId, sessionId, newMessage: { role: 'user', parts: [{ text }] } }),
      );
    },
    async close() {
      // Runner 2.0.0 has no close(); toolsets are closed at the end of every run.
      await Promise.resolve(runner);
    },
  };
}
