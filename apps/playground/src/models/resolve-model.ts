import type { Model } from '@adk/core';

import type { ModelChoice } from '../config';
import { DEFAULT_LIVE_MODEL } from '../agents/voice-agent';
import { DemoLiveModel } from './demo-live-model';
import { DemoModel } from './demo-model';

/**
 * The model object for a choice: a provider model, or the offline demo model. Provider packages
 * are loaded only when chosen, so the offline playground never loads them.
 */
function settings(choice: { baseURL?: string; apiKey?: string }): {
  baseURL?: string;
  apiKey?: string;
} {
  return {
    ...(choice.baseURL ? { baseURL: choice.baseURL } : {}),
    ...(choice.apiKey ? { apiKey: choice.apiKey } : {}),
  };
}

export async function resolveModel(choice: ModelChoice): Promise<Model> {
  switch (choice.provider) {
    case 'demo':
      return new DemoModel();
    case 'gemini': {
      const { createGemini } = await import('@adk/models-gemini');
      return createGemini(settings(choice))(choice.model);
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@adk/models-anthropic');
      return createAnthropic(settings(choice))(choice.model);
    }
    case 'openai': {
      const { createOpenAI } = await import('@adk/models-openai');
      return createOpenAI(settings(choice))(choice.model);
    }
  }
}

/**
 * The model of the `voice` app: the Gemini Live model (`liveModel`, default
 * `gemini-live-2.5-flash-preview`) when the chosen provider is Gemini, else the offline
 * {@link DemoLiveModel} (typed turns only).
 */
export async function resolveLiveModel(
  choice: ModelChoice,
  liveModel: string = DEFAULT_LIVE_MODEL,
): Promise<Model> {
  if (choice.provider !== 'gemini') return new DemoLiveModel();
  const { createGemini } = await import('@adk/models-gemini');
  return createGemini(settings(choice))(liveModel);
}
