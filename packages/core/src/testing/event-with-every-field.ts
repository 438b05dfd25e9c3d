import type { Event } from '../events';

/**
 * An event that sets every field of `Event`, with keys a naive case conversion would break: the
 * round-trip fixture of the session conformance suite, handy for testing other stores and codecs.
 */
export function eventWithEveryField(timestamp: number): Event {
  return {
    id: 'evt-full-1',
    invocationId: 'inv-full',
    author: 'weather_agent',
    branch: 'root.weather_agent',
    timestamp,
    content: {
      role: 'model',
      parts: [
        { text: 'thinking…', thought: true, thoughtSignature: 'c2ln' },
        { text: 'Here it is' },
        { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=', displayName: 'chart.png' } },
        {
          fileData: {
            mimeType: 'application/pdf',
            fileUri: 'gs://bucket/report.pdf',
            displayName: 'report',
          },
        },
        {
          functionCall: {
            id: 'fc-1',
            name: 'get_weather',
            args: {
              cityName: 'Paris',
              unit_system: 'metric',
              nested: { innerKey: [1, { deep_key: true }] },
            },
          },
        },
        {
          functionResponse: {
            id: 'fc-1',
            name: 'get_weather',
            response: { tempC: 21, wind_speed: 3, ok: null },
          },
        },
        { executableCode: { language: 'PYTHON', code: 'print(6 * 7)' } },
        { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '42\n' } },
      ],
    },
    partial: false,
    turnComplete: true,
    finishReason: 'STOP',
    usageMetadata: {
      promptTokenCount: 10,
      candidatesTokenCount: 5,
      totalTokenCount: 15,
      cachedContentTokenCount: 2,
      thoughtsTokenCount: 1,
    },
    errorCode: 'SAFETY',
    errorMessage: 'partly blocked',
    interrupted: false,
    modelVersion: 'fake-model-001',
    groundingMetadata: {
      webSearchQueries: ['weather Paris'],
      groundingChunks: [{ web: { uri: 'https://example.com/paris', title: 'Paris weather' } }],
      groundingSupports: [
        {
          segment: { startIndex: 0, endIndex: 10, text: 'Here it is' },
          groundingChunkIndices: [0],
        },
      ],
    },
    citationMetadata: {
      citations: [
        { startIndex: 0, endIndex: 10, uri: 'https://example.com/paris', title: 'Paris' },
      ],
    },
    customMetadata: { traceId: 'abc', snake_case: 1, Mixed_Key: { innerCamel: 2 } },
    cacheMetadata: {
      cacheName: 'cachedContents/abc123',
      expireTime: timestamp / 1000 + 1800,
      fingerprint: '0123456789abcdef',
      invocationsUsed: 2,
      contentsCount: 3,
      createdAt: timestamp / 1000,
    },
    longRunningToolIds: ['fc-1'],
    actions: {
      stateDelta: { last_city: 'Paris', lastCity: 'Paris', 'app:hits': 1, 'user:homeCity': 'Lyon' },
      artifactDelta: { 'report.pdf': 2, chart_png: 0 },
      transferToAgent: 'billing_agent',
      escalate: true,
      skipSummarization: true,
      requestedToolConfirmations: {
        'fc-1': { hint: 'Send it?', confirmed: false, payload: { amount_eur: 5 } },
      },
      compaction: {
        startTimestamp: timestamp - 1000,
        endTimestamp: timestamp - 10,
        compactedContent: {
          role: 'model',
          parts: [
            { text: 'summary' },
            { functionCall: { id: 'fc-0', name: 'lookup', args: { query_text: 'x', maxHits: 2 } } },
          ],
        },
      },
    },
  };
}
