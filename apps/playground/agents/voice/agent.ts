/**
 * The playground's live voice agent as an `adk web` app: `adk web apps/playground/agents` serves
 * it, and the microphone of the web UI talks to it over `/run_live`. It runs on the Gemini Live
 * model, so it needs `GEMINI_API_KEY` (or `GOOGLE_API_KEY`) and `@adk/models-gemini`.
 */
import { createVoiceAgent, DEFAULT_LIVE_MODEL } from '../../src/agents';

export const rootAgent = createVoiceAgent(process.env.ADK_LIVE_MODEL?.trim() || DEFAULT_LIVE_MODEL);
