import { FunctionTool } from '@adk/core';
import { z } from 'zod';

const HEADLINES: Record<string, string[]> = {
  space: [
    'A new telescope maps 10,000 galaxies in one night',
    'Lunar rover finds ice near the south pole',
  ],
  technology: [
    'Open-source agents framework reaches 1.0',
    'Batteries that charge in five minutes enter trials',
  ],
  sports: ['Underdog team wins the regional final', 'Marathon record falls by four seconds'],
  science: [
    'Researchers sequence a 40,000-year-old genome',
    'A coral reef regrows faster than expected',
  ],
};

/**
 * `get_news`: headlines about a topic. Offline sample data, so the playground never needs a news
 * API; unknown topics get the technology headlines.
 */
export const newsTool = new FunctionTool({
  name: 'get_news',
  description: 'Get the latest news headlines about a topic (space, technology, sports, science).',
  parameters: z.object({ topic: z.string().min(1).describe('The topic, e.g. "space"') }),
  execute: ({ topic }) => {
    const key =
      Object.keys(HEADLINES).find((name) => topic.toLowerCase().includes(name)) ?? 'technology';
    return { topic: key, headlines: HEADLINES[key], source: 'playground sample data' };
  },
});
