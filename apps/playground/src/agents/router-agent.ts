import { LlmAgent } from '@adk/core';
import type { Model } from '@adk/core';

import { newsTool, weatherTool } from '../tools';

/**
 * The seed's router: a root agent that hands weather questions to `weather` and news questions
 * to `news`, each a specialist with its own tool.
 */
export function createRouterAgent(model: string | Model): LlmAgent {
  const weather = new LlmAgent({
    name: 'weather',
    description: 'Handles weather-related questions',
    model,
    instruction:
      'You handle weather queries. Use get_weather, then answer in one or two sentences.',
    tools: [weatherTool],
  });
  const news = new LlmAgent({
    name: 'news',
    description: 'Handles news-related questions',
    model,
    instruction: 'You handle news queries. Use get_news, then list the headlines briefly.',
    tools: [newsTool],
  });
  return new LlmAgent({
    name: 'router',
    description: 'Routes questions to the weather and news specialists',
    model,
    instruction:
      'You are a friendly assistant. Transfer weather questions to the weather agent and news questions to the news agent. Answer anything else yourself, briefly.',
    subAgents: [weather, news],
  });
}
