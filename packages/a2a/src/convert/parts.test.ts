import type { Part } from '@adk/core';
import type { Part as A2aPart } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';

import { toA2aParts, toAdkParts } from './parts';

const a2a = (content: NonNullable<A2aPart['content']>, extra: Partial<A2aPart> = {}): A2aPart => ({
  content,
  metadata: undefined,
  filename: '',
  mediaType: '',
  ...extra,
});

describe('part conversion (A2A 1.0 parts)', () => {
  it('round-trips every ADK part kind through A2A parts', () => {
    const parts: Part[] = [
      { text: 'hello' },
      { text: 'thinking…', thought: true },
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=', displayName: 'pic.png' } },
      { fileData: { fileUri: 'https://example.com/a.pdf', mimeType: 'application/pdf' } },
      { functionCall: { id: 'c1', name: 'lookup', args: { q: 'x' } } },
      { functionResponse: { id: 'c1', name: 'lookup', response: { hits: 3 } } },
    ];
    const converted = toA2aParts(parts, ['c1']);
    expect(converted).toEqual([
      a2a({ $case: 'text', value: 'hello' }),
      a2a({ $case: 'text', value: 'thinking…' }, { metadata: { adk_thought: true } }),
      a2a(
        { $case: 'raw', value: Buffer.from('iVBORw0KGgo=', 'base64') },
        { mediaType: 'image/png', filename: 'pic.png' },
      ),
      a2a({ $case: 'url', value: 'https://example.com/a.pdf' }, { mediaType: 'application/pdf' }),
      a2a(
        { $case: 'data', value: { id: 'c1', name: 'lookup', args: { q: 'x' } } },
        { metadata: { adk_type: 'function_call', adk_is_long_running: true } },
      ),
      a2a(
        { $case: 'data', value: { id: 'c1', name: 'lookup', response: { hits: 3 } } },
        { metadata: { adk_type: 'function_response' } },
      ),
    ]);
    expect(toAdkParts(converted)).toEqual({ parts, longRunningToolIds: ['c1'] });
  });

  it('gives a model plain data parts as JSON text, and drops parts with nothing to carry', () => {
    expect(
      toAdkParts([a2a({ $case: 'data', value: { rate: 1.43, currency: 'CAD' } })]).parts,
    ).toEqual([{ text: '{"rate":1.43,"currency":"CAD"}' }]);
    expect(toAdkParts([a2a({ $case: 'data', value: [1, 2] })]).parts).toEqual([{ text: '[1,2]' }]);
    expect(toA2aParts([{ thoughtSignature: 'abc' }])).toEqual([]);
    expect(
      toAdkParts([{ content: undefined, metadata: undefined, filename: '', mediaType: '' }]).parts,
    ).toEqual([]);
  });

  it('wraps a non-object function response and defaults a missing media type', () => {
    const { parts } = toAdkParts([
      a2a(
        { $case: 'data', value: { name: 'f', response: 'ok' } },
        { metadata: { adk_type: 'function_response' } },
      ),
      a2a({ $case: 'raw', value: Buffer.from([0]) }),
    ]);
    expect(parts).toEqual([
      { functionResponse: { name: 'f', response: { result: 'ok' } } },
      { inlineData: { mimeType: 'application/octet-stream', data: 'AA==' } },
    ]);
  });
});
