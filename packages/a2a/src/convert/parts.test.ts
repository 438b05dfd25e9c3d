import type { Part } from '@adk/core';
import { describe, expect, it } from 'vitest';

import { toA2aParts, toAdkParts } from './parts';

describe('part conversion', () => {
  it('round-trips every ADK part kind through A2A parts', () => {
    const parts: Part[] = [
      { text: 'hello' },
      { text: 'thinking…', thought: true },
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=', displayName: 'pic.png' } },
      { fileData: { fileUri: 'https://example.com/a.pdf', mimeType: 'application/pdf' } },
      { functionCall: { id: 'c1', name: 'lookup', args: { q: 'x' } } },
      { functionResponse: { id: 'c1', name: 'lookup', response: { hits: 3 } } },
    ];
    const a2a = toA2aParts(parts, ['c1']);
    expect(a2a).toEqual([
      { kind: 'text', text: 'hello' },
      { kind: 'text', text: 'thinking…', metadata: { adk_thought: true } },
      { kind: 'file', file: { bytes: 'iVBORw0KGgo=', mimeType: 'image/png', name: 'pic.png' } },
      { kind: 'file', file: { uri: 'https://example.com/a.pdf', mimeType: 'application/pdf' } },
      {
        kind: 'data',
        data: { id: 'c1', name: 'lookup', args: { q: 'x' } },
        metadata: { adk_type: 'function_call', adk_is_long_running: true },
      },
      {
        kind: 'data',
        data: { id: 'c1', name: 'lookup', response: { hits: 3 } },
        metadata: { adk_type: 'function_response' },
      },
    ]);
    expect(toAdkParts(a2a)).toEqual({ parts, longRunningToolIds: ['c1'] });
  });

  it('gives a model plain data parts as JSON text, and drops parts with nothing to carry', () => {
    expect(toAdkParts([{ kind: 'data', data: { rate: 1.43, currency: 'CAD' } }]).parts).toEqual([
      { text: '{"rate":1.43,"currency":"CAD"}' },
    ]);
    expect(toA2aParts([{ thoughtSignature: 'abc' }])).toEqual([]);
  });

  it('wraps a non-object function response and defaults a missing mime type', () => {
    const { parts } = toAdkParts([
      {
        kind: 'data',
        data: { name: 'f', response: 'ok' },
        metadata: { adk_type: 'function_response' },
      },
      { kind: 'file', file: { bytes: 'AA==' } },
    ]);
    expect(parts).toEqual([
      { functionResponse: { name: 'f', response: { result: 'ok' } } },
      { inlineData: { mimeType: 'application/octet-stream', data: 'AA==' } },
    ]);
  });
});
