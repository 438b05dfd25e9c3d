import { createEvent } from '@adk/core';
import { describe, expect, it } from 'vitest';
import { memoryServiceConformance } from '@adk/core/testing/vitest';

import { InMemoryMemoryService } from './in-memory-memory-service';

memoryServiceConformance('InMemoryMemoryService', () => new InMemoryMemoryService());

describe('InMemoryMemoryService words', () => {
  it('keeps words of scripts with combining marks whole', async () => {
    const service = new InMemoryMemoryService();
    const event = createEvent({
      invocationId: 'i',
      author: 'user',
      content: { role: 'user', parts: [{ text: 'नमस्ते दुनिया' }] },
    });
    await service.addSessionToMemory({
      id: 's',
      appName: 'a',
      userId: 'u',
      state: {},
      events: [event],
      lastUpdateTime: 0,
    });
    expect(
      (await service.searchMemory({ appName: 'a', userId: 'u', query: 'नमस्ते' })).memories,
    ).toHaveLength(1);
    // A fragment of the word is not the word.
    expect(
      (await service.searchMemory({ appName: 'a', userId: 'u', query: 'नमस' })).memories,
    ).toHaveLength(0);
  });
});
