import { describe, expect, it } from 'vitest';

import type { AdkEvent } from '../api/types';
import { eventSearchQueries, eventSources } from './sources';

const base: AdkEvent = { id: 'e', invocationId: 'i', author: 'agent', timestamp: 0 };

describe('the sources shown under an answer', () => {
  it('lists grounding pages then cited pages, each once, titled by their host when untitled', () => {
    const event: AdkEvent = {
      ...base,
      groundingMetadata: {
        webSearchQueries: ['tallest building', ''],
        groundingChunks: [
          { web: { uri: 'https://example.com/towers', title: 'Towers' } },
          { retrievedContext: { uri: 'https://docs.example.org/page' } },
          { web: { uri: 'https://example.com/towers', title: 'Towers again' } },
        ],
      },
      citationMetadata: {
        citations: [
          { uri: 'https://example.com/towers', title: 'Towers' },
          { uri: 'https://cited.example.net/a', title: 'Cited' },
        ],
      },
    };
    expect(eventSources(event)).toEqual([
      { uri: 'https://example.com/towers', title: 'Towers' },
      { uri: 'https://docs.example.org/page', title: 'docs.example.org' },
      { uri: 'https://cited.example.net/a', title: 'Cited' },
    ]);
    expect(eventSearchQueries(event)).toEqual(['tallest building']);
  });

  it('never turns a non-web URI into a link', () => {
    const event: AdkEvent = {
      ...base,
      citationMetadata: {
        citations: [{ uri: 'javascript:alert(1)' }, { uri: 'gs://bucket/file' }, { title: 'x' }],
      },
    };
    expect(eventSources(event)).toEqual([]);
    expect(eventSources(base)).toEqual([]);
  });
});
