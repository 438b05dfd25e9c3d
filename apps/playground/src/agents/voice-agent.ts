import { LlmAgent } from '@adk/core';
import type { Model } from '@adk/core';

import { weatherTool } from '../tools';

/** The Gemini Live model the `voice` app uses when a Gemini key is set. */
export const DEFAULT_LIVE_MODEL = 'gemini-live-2.5-flash-preview';

/**
 * Shows live runs (`Runner.runLive`, the `/run_live` WebSocket): a voice assistant with the
 * weather tool. Talk to it with the microphone of the web UI; it answers in audio, and the
 * conversation is stored as text (transcriptions), so a later typed turn continues it.
 */
export function createVoiceAgent(model: string | Model): LlmAgent {
  return new LlmAgent({
    name: 'voice',
    description: 'A voice assistant: talk to it live (microphone), it answers aloud',
    model,
    instruction:
      'You are a friendly voice assistant. Answer in one or two short spoken sentences. Use get_weather for weather questions.',
    tools: [weatherTool],
  });
}
